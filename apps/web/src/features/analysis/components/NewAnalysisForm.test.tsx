import { describe, expect, it } from 'vitest';
import type { ImagingCohort } from '@insilico/contracts';
import { imagingCohortParameters } from './NewAnalysisForm';

const patient = (id: string, keys: string[]) => ({ id, parameters: keys.map((key) => ({ key })) });
const cohort = (patients: ReturnType<typeof patient>[]) => ({ datasetId: 'd1', patients }) as unknown as ImagingCohort;

describe('imagingCohortParameters', () => {
  it('starts an imaging cohort’s analysis with what was measured on every patient, in the first one’s order', () => {
    expect(
      imagingCohortParameters(
        cohort([
          patient('P1', ['volume:aortic_root:end-diastole', 'lvEdv_mL', 'lvef_pct']),
          patient('P2', ['lvef_pct', 'lvEdv_mL']),
        ]),
      ),
    ).toEqual(['lvEdv_mL', 'lvef_pct']);
    expect(imagingCohortParameters(cohort([]))).toEqual([]);
  });
});
