// The pressure outlet's buffer in the product's fluid run (docs/decisions/sph-outlet-buffer-fill.md, D):
//   node --import tsx packages/scenarios/scripts/outlet-buffer-product.ts [end time s, default the case's]
// The coarse fluid template of synthetic patient 20261125/7 (the room of `npm run bench -- simulation-diastole`), built
// by the scenarios and stepped by hand on the engine (one thread, wasm). Every 10 ms of simulated time: the inflow,
// the particle count, the fluid between the planes and in the outlet buffer (particles), the outlet buffer's mean
// pressure, the fastest particle over u_ref and how many exceed 2 u_ref, and the particles the outlet created and
// removed since the last line. Then the outlet buffer's fewest and most over the run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCase, waveformValue, type Waveform } from '@insilico/sph';
import { templateFluidCase } from '../../../bench/templateRoom';

const built = templateFluidCase(20261125, 7);
const fluidCase = built.engineCase.fluid as { referenceVelocity: number; inlets: { flowRate: Waveform }[] };
const uRef = fluidCase.referenceVelocity;
const end = process.argv[2] ? Number(process.argv[2]) : built.engineCase.endTime;
const dir = await mkdtemp(join(tmpdir(), 'outlet-buffer-'));
try {
  for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
  const sim = await buildCase({ ...built.engineCase, threads: 1, backend: 'wasm' }, dir);
  const open = sim.open!;
  const f = open.sim.fluid;
  const mass = f.mass[0]!;
  const inOutletBuffer = (i: number) => !open.isInterior(i) && !open.isEmitter(i) && !open.isReturned(i);
  let fewest = Infinity;
  let most = 0;
  let next = 0;
  let created = 0;
  let removed = 0;
  console.log(
    't_ms,inflow_mL_s,particles,inside,outlet_buffer,outlet_buffer_p_Pa,max_over_uref,faster_than_2uref,created,removed',
  );
  while (sim.counters.time < end - 1e-12) {
    sim.step(end);
    const balance = open.history[open.history.length - 1]!;
    created += balance.refilled / mass;
    removed += balance.removed / mass;
    let buffer = 0;
    let pressure = 0;
    let vmax = 0;
    let fast = 0;
    for (let i = 0; i < f.count; i++) {
      const v = Math.hypot(f.vx[i]!, f.vy[i]!, f.vz[i]!) / uRef;
      vmax = Math.max(vmax, v);
      if (v > 2) fast++;
      if (!inOutletBuffer(i)) continue;
      buffer++;
      pressure += f.p[i]!;
    }
    fewest = Math.min(fewest, buffer);
    most = Math.max(most, buffer);
    if (!Number.isFinite(vmax)) throw new Error(`velocities not finite at ${sim.counters.time} s`);
    if (sim.counters.time < next) continue;
    next += 0.01;
    console.log(
      [
        (sim.counters.time * 1000).toFixed(0),
        (waveformValue(fluidCase.inlets[0]!.flowRate, sim.counters.time) * 1e6).toFixed(0),
        f.count,
        Math.round(balance.inside / mass),
        buffer,
        (pressure / buffer).toFixed(0),
        vmax.toFixed(2),
        fast,
        Math.round(created),
        Math.round(removed),
      ].join(','),
    );
    created = 0;
    removed = 0;
  }
  console.log(JSON.stringify({ outletBuffer: { fewest, most } }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
