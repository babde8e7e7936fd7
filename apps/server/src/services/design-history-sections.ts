import {
  designHistoryEntryKinds,
  entryKindSections,
  type DesignHistoryEntryKind,
  type DesignHistorySection,
} from '@insilico/contracts';

/** The actions of the design history's own records (entries and signatures), written to the trail like any other. */
export const entryAddedAction = 'design_history.entry_added';
export const entryEditedAction = 'design_history.entry_edited';
export const signedAction = 'signature.signed';
/** The design history file exported (PDF or evidence ZIP): in the activity feed, not in the file itself. */
export const exportedAction = 'design_history.exported';

/** The design history page of a project, for a link from the activity feed. */
export function designHistoryPath(projectId: string): string {
  return `/design-history?${new URLSearchParams({ projectId }).toString()}`;
}

/**
 * Which events of a project belong to its design history file (ISO 13485 §7.3.10), and in which section: inputs
 * (the question of interest, the intended population), outputs (device versions), verification and validation
 * evidence (simulations, trials, measurements, analyses, shape models) and reviews (status decisions, signatures).
 * Everything else the trail records (comments, rooms, the team) stays in the activity feed.
 */
export const eventSections: Readonly<Record<string, DesignHistorySection>> = {
  'project.created': 'input',
  'project.updated': 'input',
  'question.created': 'input',
  'project.cohort_added': 'input',
  'project.cohort_removed': 'input',
  'measurement.defined': 'input',
  'measurement.revised': 'input',
  'project.version_added': 'output',
  'project.version_removed': 'output',
  'simulation.started': 'evidence',
  'simulation.retried': 'evidence',
  'simulation.cancelled': 'evidence',
  'simulation.deleted': 'evidence',
  'simulation.completed': 'evidence',
  'simulation.failed': 'evidence',
  'trial.started': 'evidence',
  'trial.rerun': 'evidence',
  'trial.cancelled': 'evidence',
  'trial.retried': 'evidence',
  'trial.finished': 'evidence',
  'trial.outcomes_changed': 'evidence',
  'trial.outcomes_read': 'evidence',
  'measurement.ordered': 'evidence',
  'measurement.corrected': 'evidence',
  'analysis.created': 'evidence',
  'analysis.updated': 'evidence',
  'ssm.build_started': 'evidence',
  'ssm.build_retried': 'evidence',
  'ssm.build_queued': 'evidence',
  'ssm.built': 'evidence',
  'ssm.failed': 'evidence',
  // A results snapshot kept afterwards for work finished before migration 0027 (services/result-backfill.ts).
  'simulation.results_backfilled': 'evidence',
  'trial.results_backfilled': 'evidence',
  'measurement.results_backfilled': 'evidence',
  'ssm.results_backfilled': 'evidence',
  'project.status_changed': 'review',
  [signedAction]: 'review',
};

/** The section of an event, or null when it is not part of the design history. */
export function sectionOf(action: string, after: unknown): DesignHistorySection | null {
  if (action === entryAddedAction) {
    const kind = (after as { kind?: string } | null)?.kind;
    return isEntryKind(kind) ? entryKindSections[kind] : 'review';
  }
  return eventSections[action] ?? null;
}

function isEntryKind(kind: unknown): kind is DesignHistoryEntryKind {
  return typeof kind === 'string' && (designHistoryEntryKinds as readonly string[]).includes(kind);
}

/** What the timeline reads for one section (or all): the event actions, and the entry kinds of its entries. */
export function selectionOf(section: DesignHistorySection | undefined): { actions: string[]; entryKinds: string[] } {
  const actions = Object.entries(eventSections)
    .filter(([, itsSection]) => !section || itsSection === section)
    .map(([action]) => action);
  const entryKinds = designHistoryEntryKinds.filter((kind) => !section || entryKindSections[kind] === section);
  return { actions, entryKinds };
}
