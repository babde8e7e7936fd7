// `npm run bench -- simulation-diastole`: the coarse fluid template of one synthetic patient (DIASTOLE_PATIENT,
// seed:index, default 20261125:7) run over its whole cycle with the engine's runCase (1 engine thread, wasm), then per
// saved frame: simulated time, the inflow, the moving particles, the fastest one and the 99th percentile of the speed
// over u_ref, and how many move faster than 2 u_ref (docs/decisions/sph-diastole-tensile-control.md: in diastole the
// fastest used to reach 10–17 u_ref and the moving count fell by a fifth). The moving count is every fluid particle,
// buffers included: from the open boundary's mass balance each frame also shows the fluid between the planes (mass
// over the first step's, and in particles) and the net mass that flowed back through the inlet so far
// (docs/decisions/sph-inlet-backflow.md), so that a change of the count can be told from a change of the fluid inside.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameLayout, readColumn, runCase, waveformValue } from '../packages/sph/src/index';
import { templateFluidCase } from './templateRoom';

const [seed, index] = (process.env.DIASTOLE_PATIENT ?? '20261125:7').split(':').map(Number);
const built = templateFluidCase(seed!, index!);
const fluidCase = built.engineCase.fluid as {
  referenceVelocity: number;
  inlets: { flowRate: { table: [number, number][]; period: number } }[];
};
const uRef = fluidCase.referenceVelocity;
const flow = fluidCase.inlets[0]!.flowRate;
const dir = await mkdtemp(join(tmpdir(), 'diastole-'));
try {
  for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
  const { manifest, sim } = await runCase(
    { ...built.engineCase, threads: 1, backend: 'wasm' },
    { caseDir: dir, outDir: join(dir, 'out') },
  );
  console.log(`patient ${seed}:${index}, u_ref ${uRef.toFixed(3)} m/s`);
  const history = sim.open!.history;
  const fluid = sim.fluid!.fluid;
  const mass = fluid.mass[0]!;
  // Every particle of the coarse template has the same mass (ρ₀ dp³): the interior count is its mass over that.
  for (let i = 0; i < fluid.count; i++) if (fluid.mass[i] !== mass) throw new Error('particle masses differ');
  const inside0 = history[0]!.inside;
  console.log(
    't_ms,inflow_mL_s,moving,max_over_uref,p99_over_uref,faster_than_2uref,inside_over_first,inside_particles,in_buffers,backflow_over_first',
  );
  for (const step of manifest.timesteps) {
    // The balance of the advection step that ended at the frame's time (the frame of time 0: the first step's).
    const upTo = history.filter((b) => b.time <= step.time * (1 + 1e-12));
    const balance = upTo[upTo.length - 1] ?? history[0]!;
    const inside = Math.round(balance.inside / mass);
    const backflow = upTo.reduce((sum, b) => sum + b.backflow[0]!, 0);
    const count = step.particleCounts!.blood!;
    const frame = new Uint8Array(await readFile(join(dir, 'out', 'blood', `${step.index}.bin`)));
    const column = frameLayout(count, 3, 'fluid').find((c) => c.name === 'velocity')!;
    const v = readColumn(frame, column);
    const speeds = Array.from({ length: count }, (_, i) => Math.hypot(v[i]!, v[count + i]!, v[2 * count + i]!) / uRef);
    speeds.sort((a, b) => a - b);
    const fast = speeds.filter((s) => s > 2).length;
    const q = waveformValue(flow, step.time) * 1e6;
    console.log(
      [
        (step.time * 1000).toFixed(0),
        q.toFixed(0),
        count,
        speeds[count - 1]!.toFixed(2),
        speeds[Math.floor(0.99 * (count - 1))]!.toFixed(2),
        fast,
        (balance.inside / inside0).toFixed(4),
        inside,
        count - inside,
        (backflow / inside0).toFixed(5),
      ].join(','),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
