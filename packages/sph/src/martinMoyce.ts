import { damBreak } from './cases';
import { connectedFront, surgeFront } from './verification';

/**
 * Martin & Moyce, "An experimental study of the collapse of liquid columns on a rigid horizontal plane", Phil. Trans.
 * R. Soc. Lond. A 244 (1952) 312–324, Table 2: the column a wide and n²a = 2a high; surge front Z = z/a at
 * T = t·√(2g/a) (transcribed in TormodLandet/Ocellaris `scripts/plot_dam_break.py`).
 */
export const MARTIN_MOYCE = {
  T: [0.41, 0.84, 1.19, 1.43, 1.63, 1.83, 1.98, 2.2, 2.32, 2.51, 2.65, 2.83, 2.98, 3.11, 3.33],
  Z: [1.11, 1.22, 1.44, 1.67, 1.89, 2.11, 2.33, 2.56, 2.78, 3.0, 3.22, 3.44, 3.67, 3.89, 4.11],
} as const;

/** One tabulated time of the comparison. */
export interface FrontPoint {
  T: number;
  /** Martin & Moyce's Z. */
  experiment: number;
  /** Z by the largest fluid x, and its relative error. */
  largestX: number;
  largestXError: number;
  /** Z by the front of the continuous layer (`connectedFront`), and its relative error. */
  layer: number;
  layerError: number;
  /**
   * T minus the time at which the simulated (largest-x) front reached the experiment's Z: the shift of the time
   * origin that would align this point (NaN when the simulation had not yet reached it). A diagnostic only.
   */
  timeLead: number;
}

/**
 * Runs Martin & Moyce's n² = 2 column (width a = 1, height 2a, g = 1) in the SPHinXsys tank and scheme at spacing `dp`
 * up to the last tabulated T ≤ `lastT` and compares the front at each tabulated T by both definitions, which were fixed
 * before comparing. `threads` > 1 runs on a worker pool. `onSample` gets (T, Z by largest x) after every advection step.
 */
export async function martinMoyceFront(
  dp: number,
  options: { threads?: number; lastT?: number; onSample?: (T: number, Z: number) => void } = {},
): Promise<{ points: FrontPoint[]; particles: number; steps: [number, number] }> {
  const a = 1;
  const scale = Math.sqrt(2 / a);
  const sim = damBreak({ dp, height: 2 * a, width: a });
  const samples: [number, number][] = [[0, surgeFront(sim) / a]];
  const points: FrontPoint[] = [];
  if ((options.threads ?? 1) > 1) await sim.startThreads(options.threads ?? 1);
  try {
    for (let k = 0; k < MARTIN_MOYCE.T.length && MARTIN_MOYCE.T[k]! <= (options.lastT ?? Infinity); k++) {
      const T = MARTIN_MOYCE.T[k]!;
      const experiment = MARTIN_MOYCE.Z[k]!;
      sim.run(T / scale, (c) => {
        const sample: [number, number] = [c.time * scale, surgeFront(sim) / a];
        samples.push(sample);
        options.onSample?.(...sample);
      });
      const largestX = surgeFront(sim) / a;
      const layer = connectedFront(sim) / a;
      const m = samples.findIndex(([, z]) => z >= experiment);
      const reached =
        m > 0
          ? samples[m - 1]![0] +
            ((experiment - samples[m - 1]![1]) / (samples[m]![1] - samples[m - 1]![1])) *
              (samples[m]![0] - samples[m - 1]![0])
          : NaN;
      points.push({
        T,
        experiment,
        largestX,
        largestXError: largestX / experiment - 1,
        layer,
        layerError: layer / experiment - 1,
        timeLead: T - reached,
      });
    }
  } finally {
    await sim.stopThreads();
  }
  return { points, particles: sim.fluid.count, steps: [sim.counters.advectionSteps, sim.counters.acousticSteps] };
}
