import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frameLayout, readColumn, runCase, type CaseSimulation, type Manifest, type SphCase } from '@insilico/sph';
import { cpuTask, type CpuTaskContext } from './task';
import { summarizeFrames, type ObjectSummaries } from './frame-summary';
import { writeWallShearStress, type ResultManifest } from './wall-shear';

/** One segment of a simulation run: the case up to `engineCase.endTime`, continued from `restart` when given. */
export interface SimulationSegmentInput {
  /** Work folder on this machine: the case files go to `case/`, the engine's result folder is `out/`. */
  dir: string;
  engineCase: SphCase;
  files: Record<string, Uint8Array>;
  /** The checkpoint to continue from (its manifest and monitors.csv are already in `out/`). */
  restart: Uint8Array | null;
  /** The whole run's end time, s (progress is over the whole run). */
  totalEndTime: number;
}

export interface SimulationSegmentOutput {
  /** Simulated time reached, s. */
  time: number;
  /** The engine's manifest, with the wall's surface particles (their wall shear stress) for flow runs. */
  manifest: ResultManifest;
  /** Per object, the summaries of the good frames this segment saved (stored next to them). */
  summaries: Record<string, ObjectSummaries>;
  /** Why the run diverged (NaN or particles far outside the domain), with the index of the last good timestep. */
  divergence: { message: string; lastGoodTimestep: number } | null;
}

/**
 * The simulation of the last segment this thread ran, by work folder: the next segment of the same run continues it
 * without building the case again (a flow case's vessel takes seconds to build; `runCase` checks that it stands at
 * the checkpoint's time, else it builds and restores). Dropped at the run's end; a cancelled run's thread ends.
 */
let lastSegment: { dir: string; sim: CaseSimulation } | null = null;

/**
 * Runs one segment in a CPU-pool thread (never on the event loop): the engine's `runCase`, which writes the frames,
 * manifest.json, monitors.csv and checkpoint.bin into `out/`. Then checks every new frame for divergence: a NaN or a
 * position farther than the first frame's bounds (widened by half their size) means the run blew up. A flow run's
 * good frames then get the wall shear stress of every wall surface particle (`wall-shear.ts`).
 */
export async function runSimulationSegment(
  input: SimulationSegmentInput,
  context: CpuTaskContext,
): Promise<SimulationSegmentOutput> {
  const caseDir = join(input.dir, 'case');
  const outDir = join(input.dir, 'out');
  await mkdir(caseDir, { recursive: true });
  await mkdir(outDir, { recursive: true });
  for (const [name, bytes] of Object.entries(input.files)) await writeFile(join(caseDir, name), bytes);
  const firstNew = input.restart ? await savedTimesteps(outDir) : 0;
  const kept = lastSegment?.dir === input.dir ? lastSegment.sim : undefined;
  lastSegment = null;
  const { manifest, sim } = await runCase(input.engineCase, {
    caseDir,
    outDir,
    ...(input.restart ? { restart: input.restart, ...(kept ? { simulation: kept } : {}) } : {}),
    // runCase reports the fraction of this segment's end time; progress is over the whole run, the message the time.
    onProgress: (fraction) => {
      const time = fraction * input.engineCase.endTime;
      context.progress(Math.min(1, time / input.totalEndTime), String(time));
    },
  });
  const divergence = await findDivergence(outDir, manifest, Math.max(0, firstNew));
  const last = divergence ? divergence.lastGoodTimestep : manifest.timesteps.length - 1;
  const wall = await writeWallShearStress(sim, outDir, manifest, Math.max(0, firstNew), last);
  const result: ResultManifest = wall
    ? {
        ...manifest,
        timesteps: manifest.timesteps.map((step, k) => {
          const count = wall.counts[k - Math.max(0, firstNew)];
          return count === undefined
            ? step
            : { ...step, particleCounts: { ...step.particleCounts, [wall.object.name]: count } };
        }),
        objects: [...manifest.objects, wall.object],
      }
    : manifest;
  const summaries = await summarizeFrames(outDir, result, Math.max(0, firstNew), last);
  if (!divergence && input.engineCase.endTime < input.totalEndTime) {
    // The wall shear stress pass put the saved (float32) frames into the fluid: back to the checkpoint's state, or the
    // next segment would continue from rounded positions and give other results than a run restored after a crash.
    if (wall) sim.restore(await readFile(join(outDir, 'checkpoint.bin')));
    lastSegment = { dir: input.dir, sim };
  }
  return { time: sim.counters.time, manifest: result, summaries, divergence };
}

async function savedTimesteps(outDir: string): Promise<number> {
  try {
    return (JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as Manifest).timesteps.length;
  } catch {
    return 0;
  }
}

/** The first timestep from `from` on whose frames hold a NaN or a position far outside the first frame's bounds. */
export async function findDivergence(
  outDir: string,
  manifest: Manifest,
  from: number,
): Promise<SimulationSegmentOutput['divergence']> {
  const bounds = new Map<string, { lower: number[]; upper: number[] }>();
  for (const object of manifest.objects) {
    const positions = await positionsAt(outDir, manifest, object.name, 0);
    if (!positions) continue;
    const lower = [Infinity, Infinity, Infinity];
    const upper = [-Infinity, -Infinity, -Infinity];
    const n = positions.length / 3;
    for (let a = 0; a < 3; a++) {
      for (let i = 0; i < n; i++) {
        lower[a] = Math.min(lower[a]!, positions[a * n + i]!);
        upper[a] = Math.max(upper[a]!, positions[a * n + i]!);
      }
      const margin = 0.5 * (upper[a]! - lower[a]!) + 1e-3;
      lower[a]! -= margin;
      upper[a]! += margin;
    }
    bounds.set(object.name, { lower, upper });
  }
  for (let step = Math.max(1, from); step < manifest.timesteps.length; step++) {
    for (const object of manifest.objects) {
      const frame = await readFile(join(outDir, object.name, `${step}.bin`));
      const count = manifest.timesteps[step]!.particleCounts?.[object.name] ?? object.particleCount;
      const bytes = new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
      for (const column of frameLayout(count, 3, object.kind)) {
        const values = readColumn(bytes, column);
        if (!values.every(Number.isFinite)) {
          return {
            message: `The simulation diverged at ${timeText(manifest, step)}: ${object.name} ${column.name.replaceAll('_', ' ')} is not a number. Try a finer resolution or a smaller flow.`,
            lastGoodTimestep: step - 1,
          };
        }
      }
      const positions = await positionsAt(outDir, manifest, object.name, step);
      const box = bounds.get(object.name);
      if (positions && box) {
        const n = positions.length / 3;
        for (let a = 0; a < 3; a++) {
          for (let i = 0; i < n; i++) {
            const v = positions[a * n + i]!;
            if (v < box.lower[a]! || v > box.upper[a]!) {
              return {
                message: `The simulation diverged at ${timeText(manifest, step)}: particles of ${object.name} left the simulated region. Try a finer resolution or a smaller flow.`,
                lastGoodTimestep: step - 1,
              };
            }
          }
        }
      }
    }
  }
  return null;
}

async function positionsAt(
  outDir: string,
  manifest: Manifest,
  name: string,
  step: number,
): Promise<Float32Array | null> {
  const object = manifest.objects.find((o) => o.name === name)!;
  const count = manifest.timesteps[step]!.particleCounts?.[name] ?? object.particleCount;
  const column = frameLayout(count, 3, object.kind).find((c) => c.name === 'position');
  if (!column || count === 0) return null;
  const frame = await readFile(join(outDir, name, `${step}.bin`));
  return readColumn(new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength), column) as Float32Array;
}

function timeText(manifest: Manifest, step: number): string {
  return `t = ${(manifest.timesteps[step]!.time * 1000).toPrecision(3)} ms`;
}

/** Long: queued placements, case buildings and outcome readings start before the next segment (`CpuTask.long`). */
export const simulationSegmentTask = cpuTask(import.meta.url, 'runSimulationSegment', runSimulationSegment, {
  long: true,
});
