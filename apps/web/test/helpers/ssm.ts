import type { Ssm } from '@insilico/contracts';

/** A ready shape model of twelve aortic roots at end-diastole, built with landmark modes; override what a test needs. */
export function readySsm(overrides: Partial<Ssm> = {}): Ssm {
  return {
    id: '5f0c0b8e-0000-4000-8000-000000000001',
    projectId: '5f0c0b8e-0000-4000-8000-000000000002',
    name: 'Roots, end-diastole',
    configuration: {
      cohortIds: ['5f0c0b8e-0000-4000-8000-000000000003'],
      excludedPatients: [],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    },
    shapeCount: 12,
    status: 'ready',
    progress: 1,
    progressMessage: null,
    waitingFor: [],
    error: null,
    createdBy: null,
    createdAt: '2026-11-25T03:00:00.000Z',
    readyAt: '2026-11-25T03:01:00.000Z',
    modes: null,
    quality: null,
    shapes: null,
    modelCard: null,
    version: 1,
    rebuiltFrom: null,
    rebuiltAs: null,
    landmarksFollowModes: true,
    ...overrides,
  };
}
