import type { DevelopmentStage, ProjectStatus } from '@insilico/contracts';

/** The overview's groups (spec §2: Concept, Animal, Clinical), in the order of the development stages. */
export const stageGroups: readonly { stage: DevelopmentStage; label: string }[] = [
  { stage: 'concept_and_design_feasibility', label: 'Concept' },
  { stage: 'animal_testing', label: 'Animal' },
  { stage: 'clinical_trial', label: 'Clinical' },
];

export const statusLabels: Readonly<Record<ProjectStatus, string>> = {
  active: 'Active',
  completed: 'Completed',
  abandoned: 'Abandoned',
};

export const statusColors: Readonly<Record<ProjectStatus, 'success' | 'default' | 'warning'>> = {
  active: 'success',
  completed: 'default',
  abandoned: 'warning',
};
