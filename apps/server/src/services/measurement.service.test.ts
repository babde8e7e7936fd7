import { DEFAULT_POPULATION_SEED, generatePatient, MODEL_VERSION } from '@insilico/anatomy';
import { TAVI_MEASUREMENTS } from '@insilico/measure';
import { describe, expect, it } from 'vitest';
import type { CpuRunner } from '../cpu/pool';
import type { CohortRepository } from '../repositories/cohort.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { MeasurementCellWrite, MeasurementRepository } from '../repositories/measurement.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { recordOf } from './measurement.mapper';
import { MeasurementService } from './measurement.service';

/**
 * The order job's work, idempotent: a retried job measures only the patients without a full row of results, in
 * batches through the CPU runner, reports progress, then marks the order ready. Repositories and the CPU pool are
 * small fakes (the API tests run the real ones).
 */
describe('MeasurementService.performOrder', () => {
  const patients = Array.from({ length: 12 }, (_, i) => generatePatient(DEFAULT_POPULATION_SEED, i));
  const cohort = {
    id: 'c',
    name: 'Tall women',
    size: 12,
    modelVersion: MODEL_VERSION,
  };
  const definitions = TAVI_MEASUREMENTS.slice(0, 2);

  function build(alreadyMeasured: number[], status = 'in_progress') {
    const written: MeasurementCellWrite[] = [];
    const measuredByCpu: string[] = [];
    const progress: number[] = [];
    let ready = false;
    const order = {
      id: 'o',
      deviceId: 'd',
      cohortId: 'c',
      ssmId: null,
      shapes: null,
      status,
      measurements: definitions.map((d) => recordOf(`scct-tavi/${d.key}@1`, 1, d)),
    };
    const repository = {
      findOrderById: async () => order,
      findOrderWithNames: async () => ({ order, cohortName: cohort.name, ssmProjectId: null }),
      measuredPatients: async () => new Set(alreadyMeasured),
      writeAutomatic: async (_: string, cells: MeasurementCellWrite[]) => void written.push(...cells),
      markReady: async () => {
        ready = true;
        return true;
      },
    } as unknown as MeasurementRepository;
    // The order's end commits with its event in one unit of work: the fake runs it on the same repository.
    const events: string[] = [];
    const unitOfWork = {
      run: async <T>(work: (tx: unknown) => Promise<T>) =>
        work({
          measurements: repository,
          events: { record: (event: { action: string }) => events.push(event.action) },
        }),
    } as unknown as UnitOfWork;
    const cohorts = {
      findById: async () => cohort,
      patients: async () =>
        patients.map((p) => ({ patientIndex: p.index, patientId: p.id, record: JSON.parse(JSON.stringify(p)) })),
    } as unknown as CohortRepository;
    const cpu: CpuRunner = {
      concurrency: 1,
      run: async (task, input) => {
        const batch = input as { patients: { id: string }[] };
        measuredByCpu.push(...batch.patients.map((p) => p.id));
        return (task.fn as (i: unknown, c: unknown) => unknown)(input, {
          progress: () => {},
          transfer: () => {},
        }) as never;
      },
    };
    const service = new MeasurementService(repository, cohorts, {} as DeviceRepository, unitOfWork, cpu);
    const work = { progress: async (f: number) => void progress.push(f), signal: new AbortController().signal };
    return { service, work, written, measuredByCpu, progress, isReady: () => ready, events };
  }

  it('measures every patient in batches of ten, writes each cell, reports progress and marks the order ready', async () => {
    const { service, work, written, measuredByCpu, progress, isReady, events } = build([]);
    expect(await service.performOrder('o', work)).toEqual({
      id: 'o',
      deviceId: 'd',
      cohortName: 'Tall women',
      measurements: 2,
      patients: 12,
      status: 'ready',
    });
    expect(measuredByCpu).toHaveLength(12);
    expect(written).toHaveLength(24);
    expect(progress).toEqual([10 / 12, 1]);
    expect(isReady()).toBe(true);
    expect(events).toEqual(['measurement.measured']);
  });

  it('on a retry measures only the patients without results', async () => {
    const { service, work, measuredByCpu } = build([0, 1, 2, 3, 4]);
    await service.performOrder('o', work);
    expect(measuredByCpu).toEqual(patients.slice(5).map((p) => p.id));
  });

  it('leaves an order that failed already as it is: a stale job measures nothing and marks nothing ready', async () => {
    const { service, work, written, measuredByCpu, progress, isReady, events } = build([], 'failed');
    expect(await service.performOrder('o', work)).toMatchObject({ id: 'o', status: 'failed' });
    expect(measuredByCpu).toEqual([]);
    expect(written).toEqual([]);
    expect(progress).toEqual([]);
    expect(isReady()).toBe(false);
    expect(events).toEqual([]);
  });
});
