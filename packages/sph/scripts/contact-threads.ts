// A/B of the contact's pair search on the worker pool against the calling thread, in one process:
//   node --import tsx packages/sph/scripts/contact-threads.ts [threads, default 2] [rounds, default 5]
// The 3D tube of docs/validation.md ("Friction holds an expanded device") expanded into a rigid tube to t = 0.45 s
// (about 340 steps, 8,600 contact pairs at the end), μ = 0.05; the solids' passes run on the pool in both arms, the
// contact's pair search on the pool in one and on the calling thread in the other, alternating. Prints each run's
// wall time and a hash of the final state (the two arms must agree bit for bit).
import { createHash } from 'node:crypto';
import { rigidContactBody } from '../src/contact';
import { DeviceExpansion, cylinderWall, ringParticles } from '../src/expansion';
import { ElasticSolid } from '../src/solid';

const threads = Number(process.argv[2] ?? 2);
const rounds = Number(process.argv[3] ?? 5);
const material = { model: 'neo_hookean' as const, rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 };
const dp = 0.05;

async function run(searchOnPool: boolean): Promise<{ ms: number; hash: string }> {
  const tube = ringParticles(3, dp, 0.3, 0.5, 1000, [0, 0, 0], 0.2);
  const device = new ElasticSolid(tube, { dim: 3, dp, material, damping: 60 });
  const axis = { o: [0, 0, 0] as const, a: [0, 0, 1] as const };
  const wall = rigidContactBody(cylinderWall(3, dp, 0.48, axis, -0.4, 0.4), dp);
  const e = new DeviceExpansion({
    device,
    dp,
    axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
    crimp: 0.8,
    anatomy: [{ body: wall, contact: { friction: 0.05 } }],
    expansionTime: 0.35,
    load: [0, 0, 0.5],
  });
  await e.simulation.startThreads(threads);
  for (const pair of e.simulation.pairs) {
    if (searchOnPool) pair.poolSearchFrom = 0;
    else pair.useThreads(null);
  }
  const t0 = performance.now();
  e.simulation.run(0.45);
  const ms = performance.now() - t0;
  await e.simulation.stopThreads();
  const p = device.particles;
  const h = createHash('sha1');
  for (const f of [p.x, p.y, p.z, p.vx, p.vy, p.vz]) h.update(new Uint8Array(f.buffer, 0, 8 * p.count));
  return { ms, hash: h.digest('hex').slice(0, 12) };
}

await run(true); // warm-up (JIT)
const times: Record<string, number[]> = { pool: [], calling: [] };
for (let r = 0; r < rounds; r++) {
  for (const onPool of r % 2 === 0 ? [true, false] : [false, true]) {
    const { ms, hash } = await run(onPool);
    times[onPool ? 'pool' : 'calling']!.push(ms);
    console.log(onPool ? 'search on pool   ' : 'search on calling', ms.toFixed(0), 'ms', hash);
  }
}
const median = (v: number[]): number => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)]!;
console.log(
  `threads ${threads}: median ${median(times.pool!).toFixed(0)} ms (pool) vs ${median(times.calling!).toFixed(0)} ms (calling thread), ratio ${(median(times.pool!) / median(times.calling!)).toFixed(2)}`,
);
