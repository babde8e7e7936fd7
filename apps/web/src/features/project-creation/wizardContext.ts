import { createContext, useContext } from 'react';
import type { Device, ProjectDraftState } from '@insilico/contracts';
import type { WizardRoute } from './paths';

export type DraftChange = Partial<ProjectDraftState> | ((draft: ProjectDraftState) => ProjectDraftState);

/** What every wizard page gets from the layout: the workspace, the draft as typed, and saving. */
export interface Wizard {
  deviceId: string;
  device: Device;
  userId: string;
  /** The draft as typed on this page (may differ from the saved one). */
  draft: ProjectDraftState;
  /** A local change; the page is then dirty until the next save. */
  change: (change: DraftChange) => void;
  /** Saves the draft (with a last change) and resolves true when the server took it. */
  save: (change?: DraftChange) => Promise<boolean>;
  /** Saves the draft with the route's step and goes there (spec: the draft is saved after each step). */
  go: (route: WizardRoute, change?: DraftChange) => Promise<void>;
  saving: boolean;
  /** Why the last save failed, if it did. */
  saveError: string | null;
  /** A page's own unsaved input (a form not in the draft, files uploading): leaving asks while it is true. */
  setPageDirty: (dirty: boolean) => void;
  /** Lets the next navigation leave without asking (after the project was created or the draft discarded). */
  allowNextNavigation: () => void;
}

export const WizardContext = createContext<Wizard | null>(null);

export function useWizard(): Wizard {
  const wizard = useContext(WizardContext);
  if (!wizard) throw new Error('useWizard is used outside the project creation wizard.');
  return wizard;
}

/** Applies a change to a draft. */
export function applyChange(draft: ProjectDraftState, change: DraftChange | undefined): ProjectDraftState {
  if (!change) return draft;
  return typeof change === 'function' ? change(draft) : { ...draft, ...change };
}
