import { createContext, type ReactNode } from 'react';
import type { CreateSsm } from '@insilico/contracts';
import type { SsmStepRoute } from './paths';
import type { SsmDraft } from './ssmDraft';

/** A cohort the Patients step offers (a project's, or one chosen in the project wizard's draft). */
export interface SsmCohortChoice {
  id: string;
  name: string;
  size: number;
  status: string;
  /**
   * A ready imaging cohort of the project (the user's own imaging, not synthetic): its delivered patients' ids,
   * listed with it. Absent for a virtual cohort, whose patients the step reads page by page.
   */
  imagingPatients?: string[];
}

/**
 * Where the three SSM steps run (issue 18): on a project (`?project=`, the SSM is created at once) or inside the
 * project wizard before the project exists (the SSM joins the wizard's draft). The steps are the same; the host
 * keeps the SSM being typed, offers the cohorts, moves between the steps and performs the Name step's action.
 */
export interface SsmFlowHost {
  deviceId: string;
  draft: SsmDraft;
  setDraft: (update: (draft: SsmDraft) => SsmDraft) => void;
  cohorts: { items: SsmCohortChoice[] | undefined; error: Error | undefined; empty: string };
  /** Goes to another step (the wizard saves its draft first). */
  go: (route: SsmStepRoute) => void;
  /** The Name step's action; rejects with the server's ApiError (too few → the dialog), navigates when done. */
  create: (body: CreateSsm) => Promise<void>;
  createLabel: string;
  /**
   * Cohorts still being ordered may be chosen (the project wizard, issue 18): the SSM then waits for them and is
   * built once they are ready. Their patients cannot be left out (they are listed once ready).
   */
  waitForCohorts?: boolean;
  /** The Patients step's Back (the wizard's cohort list), if any. */
  back?: () => void;
  /** Inside another page's frame (the wizard's): a section heading rather than a page title. */
  embedded: boolean;
  busy: boolean;
  /** The wizard's own end page (new-ssm-complete); absent on a project, where the SSM's progress shows. */
  completePage?: ReactNode;
}

/** The project wizard provides its host here; without one the steps run on the project named in the address. */
export const SsmFlowHostContext = createContext<SsmFlowHost | null>(null);
