// `npm run bench -- elastic-solid`: step time of the SPH elastic solid (packages/sph, total Lagrangian) on 1 and on
// 2 threads, on the SPHinXsys cantilever plate (L = 0.2, H = 0.02, clamp around a 0.06 insert) at dp = H/10 and H/20
// (SOLID_BENCH_DIVS, default "10,20"; SOLID_BENCH_ORDER sets the gradient order, default 1).
// Both runs live in this process and step in alternating blocks (1, 2, 2, 1, 1, 2, …) so that a change of the load
// of the shared machine hits both alike; both start from the same state and, being bit-identical, do the same work.
// Reported per step: wall ms and CPU ms (process.cpuUsage, all threads), cores used (CPU ÷ wall), and the ratios
// 1 thread / 2 threads: of the totals, and the median over rounds of the ratio of each round's two adjacent blocks.
// Figures go to docs/benchmarks.md, "SPH engine", and packages/sph/NOTES.md.
import { loadavg } from 'node:os';
import { oscillatingBeam, type ElasticSolid, type GradientOrder } from '@insilico/sph';

const DIVS = (process.env.SOLID_BENCH_DIVS ?? '10,20').split(',').map(Number);
const ORDER = Number(process.env.SOLID_BENCH_ORDER ?? 1) as GradientOrder;
const ROUNDS = Number(process.env.SOLID_BENCH_ROUNDS ?? 12);
/** Steps per block: about 0.2–0.5 s of work. */
const BLOCK_PARTICLE_STEPS = Number(process.env.SOLID_BENCH_BLOCK ?? 200_000);

interface Tally {
  wall: number;
  cpu: number;
  steps: number;
  blocks: number[];
}

/** Runs `steps` steps of `solid` and adds the wall and CPU seconds to `t`. */
function block(solid: ElasticSolid, steps: number, t: Tally): void {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let k = 0; k < steps; k++) solid.step(Infinity);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  t.wall += wall;
  t.cpu += (cpu.user + cpu.system) / 1e6;
  t.steps += steps;
  t.blocks.push((wall / steps) * 1000);
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

async function main(): Promise<void> {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const div of DIVS) {
    const dp = 0.02 / div;
    const one = oscillatingBeam({ dp, gradientOrder: ORDER }).solid;
    const two = oscillatingBeam({ dp, gradientOrder: ORDER }).solid;
    await two.startThreads(2);
    const n = one.particles.count;
    const steps = Math.max(10, Math.round(BLOCK_PARTICLE_STEPS / n));
    const t1: Tally = { wall: 0, cpu: 0, steps: 0, blocks: [] };
    const t2: Tally = { wall: 0, cpu: 0, steps: 0, blocks: [] };
    // Warm-up (JIT, worker wake-up paths), not counted.
    block(one, steps, { wall: 0, cpu: 0, steps: 0, blocks: [] });
    block(two, steps, { wall: 0, cpu: 0, steps: 0, blocks: [] });
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        block(one, steps, t1);
        block(two, steps, t2);
      } else {
        block(two, steps, t2);
        block(one, steps, t1);
      }
    }
    await two.stopThreads();
    const same = one.counters.steps === two.counters.steps && one.particles.y.every((y, i) => y === two.particles.y[i]);
    const ms = (t: Tally, s: number): string => ((s / t.steps) * 1000).toFixed(3);
    console.log(
      `\ncantilever dp = H/${div}, gradient order ${ORDER}: ${n} particles, ${ROUNDS} rounds of ${steps} steps per thread count` +
        ` (states identical: ${same})`,
    );
    console.log(
      `  1 thread : ${ms(t1, t1.wall)} ms/step wall (median block ${median(t1.blocks).toFixed(3)}), ${ms(t1, t1.cpu)} ms/step CPU`,
    );
    console.log(
      `  2 threads: ${ms(t2, t2.wall)} ms/step wall (median block ${median(t2.blocks).toFixed(3)}), ${ms(t2, t2.cpu)} ms/step CPU`,
    );
    const paired = t1.blocks.map((b, r) => b / t2.blocks[r]!);
    console.log(
      `  cores used: ${(t1.cpu / t1.wall).toFixed(2)} (1 thread), ${(t2.cpu / t2.wall).toFixed(2)} (2 threads)`,
    );
    console.log(
      `  speed-up 1→2 threads: ${(t1.wall / t2.wall).toFixed(2)}× wall totals, ${median(paired).toFixed(2)}× median of` +
        ` paired rounds (range ${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)});` +
        ` CPU 2 threads / 1 thread ${(t2.cpu / t1.cpu).toFixed(2)}`,
    );
  }
  console.log(
    `\nload average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

await main();
