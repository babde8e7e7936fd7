import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../events/chain';
import type { NewResultSnapshot } from '../repositories/result-snapshot.repository';
import type { SimulationRow } from '../repositories/simulation.repository';
import type { TrialPatientWithRun, TrialRow } from '../repositories/trial.repository';
import { simulationResults, trialResults } from './result-snapshot-contents';
import { hashedContent, plainJson, ResultKeeper, resultsOf, resultsSnapshotIdOf } from './result-snapshots';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const subject = {
  objectType: 'trial',
  objectId: '7d8f4a34-3c1e-4b8e-9a51-0c4f1f7b2a10',
  deviceId: '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11',
  projectId: '9a1d2c3b-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
} as const;

/** The keeper's repository in memory: what it inserted, and revisions counted per object. */
function memory() {
  const kept: NewResultSnapshot[] = [];
  return {
    kept,
    resultSnapshots: {
      insert: async (snapshot: NewResultSnapshot) => void kept.push(snapshot),
      nextRevision: async (_type: string, id: string) => kept.filter((s) => s.objectId === id).length + 1,
    },
  };
}

describe('a results snapshot’s content and hash', () => {
  it('is plain JSON: typed arrays as arrays, non-finite numbers as null, dates as ISO text, undefined dropped', () => {
    expect(
      plainJson({
        a: new Float64Array([1, Number.NaN, 2.5]),
        b: [Number.POSITIVE_INFINITY, 3],
        c: undefined,
        d: new Date('2026-11-28T09:00:00.000Z'),
        e: { f: null, g: 'x' },
      }),
    ).toEqual({ a: [1, null, 2.5], b: [null, 3], d: '2026-11-28T09:00:00.000Z', e: { f: null, g: 'x' } });
  });

  it('hashes the canonical JSON (keys sorted), so the order of keys does not matter and any change does', () => {
    const one = hashedContent({ b: 1, a: { d: [1, 2], c: 'x' } });
    const two = hashedContent({ a: { c: 'x', d: [1, 2] }, b: 1 });
    expect(one.contentHash).toBe(two.contentHash);
    expect(one.contentHash).toBe(sha256('{"a":{"c":"x","d":[1,2]},"b":1}'));
    expect(hashedContent({ b: 1, a: { d: [1, 2.0000001], c: 'x' } }).contentHash).not.toBe(one.contentHash);
  });

  it('is named by its event (id, SHA-256, code version), which the design history reads back', () => {
    const after = resultsOf({ id: 'id-1', contentHash: 'h', codeVersion: '1.2.3' });
    expect(after).toEqual({ results: { snapshotId: 'id-1', sha256: 'h', codeVersion: '1.2.3' } });
    expect(resultsSnapshotIdOf(after)).toBe('id-1');
    expect(resultsOf(null)).toEqual({});
    expect(resultsSnapshotIdOf({ results: { snapshotId: 3 } })).toBeNull();
    expect(resultsSnapshotIdOf(null)).toBeNull();
  });
});

describe('the keeper', () => {
  it('keeps each snapshot of an object under its next revision, with the code version and the hash', async () => {
    const tx = memory();
    const keeper = new ResultKeeper('9.9.9');
    const first = await keeper.keep(tx, subject, { kind: 'trial-results', patients: [{ id: 'P1', value: 1 }] });
    const second = await keeper.keep(tx, subject, { kind: 'trial-results', patients: [{ id: 'P1', value: 2 }] });
    expect(tx.kept).toEqual([first, second]);
    expect(first).toMatchObject({ ...subject, revision: 1, codeVersion: '9.9.9' });
    expect(second).toMatchObject({ revision: 2 });
    expect(first!.id).not.toBe(second!.id);
    expect(sha256(canonicalJson(first!.content))).toBe(first!.contentHash);
    expect(second!.contentHash).not.toBe(first!.contentHash);
  });

  it('keeps nothing without results or without a workspace', async () => {
    const tx = memory();
    const keeper = new ResultKeeper('9.9.9');
    expect(await keeper.keep(tx, subject, null)).toBeNull();
    expect(await keeper.keep(tx, { ...subject, deviceId: null }, { kind: 'x' })).toBeNull();
    expect(tx.kept).toEqual([]);
  });
});

describe('what a simulation keeps', () => {
  const frame = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  const files: Record<string, Uint8Array> = {
    'manifest.json': new TextEncoder().encode(JSON.stringify({ timesteps: [{ index: 0, time: 0 }] })),
    'monitors.csv': new TextEncoder().encode('time_s,flow_ml_s\n0,1.5\n'),
    'fluid/summary.json': new TextEncoder().encode(JSON.stringify({ timesteps: { 0: { stats: { v: { max: 2 } } } } })),
    'fluid/0.bin': frame,
    'checkpoint.bin': new Uint8Array([9, 9]),
  };
  const row = {
    id: 'sim-1',
    name: 'Fluid 1',
    roomId: 'room-1',
    kind: 'fluid',
    parameters: { inflow: 1 },
    resolution: 'test',
    phase: 'mean',
    endTime: 0.1,
    deviceVersionId: null,
    deviceVersionName: 'Ring valve',
    scenarioVersion: 's-1',
    estimate: { particles: 10 },
    finishedAt: null,
    // 'fluid/1.bin' is listed but missing from storage: not named.
    storedFiles: [...Object.keys(files), 'fluid/1.bin'],
  } as unknown as SimulationRow;

  it('holds the set-up, manifest, summaries and monitors, and every output file by size and SHA-256', async () => {
    const read: string[] = [];
    const content = await simulationResults(row, async (name) => {
      read.push(name);
      return files[name] ?? null;
    });
    expect(read).not.toContain('checkpoint.bin');
    expect(content).toMatchObject({
      kind: 'simulation-results',
      simulation: { id: 'sim-1', kind: 'fluid', resolution: 'test', parameters: { inflow: 1 } },
      manifest: { timesteps: [{ index: 0, time: 0 }] },
      summaries: { fluid: { timesteps: { 0: { stats: { v: { max: 2 } } } } } },
      monitors: 'time_s,flow_ml_s\n0,1.5\n',
    });
    expect(content.files).toEqual(
      ['fluid/0.bin', 'fluid/summary.json', 'manifest.json', 'monitors.csv'].map((name) => ({
        name,
        bytes: files[name]!.byteLength,
        sha256: sha256(files[name]!),
      })),
    );
  });
});

describe('what a trial keeps', () => {
  it('is the per-patient outcomes table in the cohort’s order, with the set-up and the outcomes’ definitions', () => {
    const trial = {
      id: 't-1',
      name: 'Ring',
      kind: 'fluid',
      resolution: 'test',
      cohortId: 'c-1',
      deviceVersionId: 'v-1',
      deviceVersionName: 'Ring valve',
      parameters: {},
      placement: { landmark: 'aortic_annulus' },
      acceptance: [],
      customOutcomes: [],
      basedOnTrialId: null,
    } as unknown as TrialRow;
    const patient = (patientId: string, patientIndex: number, outcomes: Record<string, number | null> | null) =>
      ({
        patient: {
          patientId,
          patientIndex,
          simulationId: null,
          outcomes,
          outcomeNotes: {},
          stage: outcomes ? null : 'placement',
          error: outcomes ? null : 'The device does not fit.',
        },
        run: null,
      }) as unknown as TrialPatientWithRun;
    const content = trialResults(trial, [patient('P2', 1, null), patient('P1', 0, { peak: 1.5 })], (p) =>
      p.patient.outcomes ? 'done' : 'failed',
    );
    expect(content).toMatchObject({ kind: 'trial-results', trial: { id: 't-1', deviceVersionName: 'Ring valve' } });
    expect((content.outcomes as unknown[]).length).toBeGreaterThan(0);
    expect(content.patients).toEqual([
      {
        patientId: 'P1',
        status: 'done',
        simulationId: null,
        outcomes: { peak: 1.5 },
        notes: {},
        stage: null,
        error: null,
      },
      {
        patientId: 'P2',
        status: 'failed',
        simulationId: null,
        outcomes: null,
        notes: {},
        stage: 'placement',
        error: 'The device does not fit.',
      },
    ]);
  });
});
