// `npm run bench -- simulation-diastole`: the coarse fluid template of one synthetic patient (DIASTOLE_PATIENT,
// seed:index, default 20261125:7) run over its whole cycle with the engine's runCase (1 engine thread, wasm), then per
// saved frame: simulated time, the inflow, the moving particles, the fastest one and the 99th percentile of the speed
// over u_ref, and how many move faster than 2 u_ref (docs/decisions/sph-diastole-tensile-control.md: in diastole the
// fastest used to reach 10–17 u_ref and the moving count fell by a fifth).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario } from '../packages/scenarios/src/index';
import { frameLayout, readColumn, runCase, waveformValue } from '../packages/sph/src/index';
import { templateRoom } from './templateRoom';

const [seed, index] = (process.env.DIASTOLE_PATIENT ?? '20261125:7').split(':').map(Number);
const { patient, device } = templateRoom(seed!, index!);
const built = buildScenario({
  patient,
  phase: 'end-diastole',
  kind: 'fluid',
  resolution: 'coarse',
  parameters: {},
  devices: [device],
});
const fluidCase = built.engineCase.fluid as {
  referenceVelocity: number;
  inlets: { flowRate: { table: [number, number][]; period: number } }[];
};
const uRef = fluidCase.referenceVelocity;
const flow = fluidCase.inlets[0]!.flowRate;
const dir = await mkdtemp(join(tmpdir(), 'diastole-'));
try {
  for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
  const { manifest } = await runCase(
    { ...built.engineCase, threads: 1, backend: 'wasm' },
    { caseDir: dir, outDir: join(dir, 'out') },
  );
  console.log(`patient ${seed}:${index}, u_ref ${uRef.toFixed(3)} m/s`);
  console.log('t_ms,inflow_mL_s,moving,max_over_uref,p99_over_uref,faster_than_2uref');
  for (const step of manifest.timesteps) {
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
      ].join(','),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
