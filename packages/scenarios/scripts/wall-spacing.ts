// The elastic wall coarser than the device, its cost (docs/decisions/solid-contact-pressure.md, "The elastic wall
// coarser than the device"), both anatomies in one process, one after the other:
//   node --import tsx packages/scenarios/scripts/wall-spacing.ts [resolution, default standard] [simulated time ms,
//     default 0.03] [wall thickness mm, default 2]
// The journey's ring (10 % wider than the annulus, crimp 0.8) in synthetic patient 20261125/7, built by the solid kind
// (its wall at its own spacing, `walls.vessel.elastic.dp`), then the same case with the wall at the device's spacing
// (round(t/dp) layers, at least 3, the clamp 2 dp: the kind before `scenarios-5`). A short simulated time keeps the
// three phases (crimp, expansion into the wall, release) within a few hundred steps: an impact, for the cost only.
// Prints per anatomy the particles (device, wall), the steps, the wall time (the build included) and the time per
// step, the last monitors row, and the ratios.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePatient } from '@insilico/anatomy';
import { runCase, type SphCase } from '@insilico/sph';
import { annulusPlacement, buildScenario, ringDeviceMesh, simulatedRegion, type Resolution } from '../src/index';

const resolution = (process.argv[2] ?? 'standard') as Resolution;
const time = Number(process.argv[3] ?? 0.03);
const thickness = Number(process.argv[4] ?? 2);
const patient = generatePatient(20261125, 7);
const region = simulatedRegion(patient, 'end-diastole');
const r = patient.cardiac.aorticAnnulusDiameter_mm / 2;
const built = buildScenario({
  patient,
  phase: 'end-diastole',
  kind: 'solid',
  resolution,
  parameters: { crimpRatio: 0.8, simulatedTime_ms: time, wallThickness_mm: thickness },
  devices: [{ name: 'Ring', transform: annulusPlacement(region, 0), meshes: [ringDeviceMesh(0.95 * r, 0.15 * r)] }],
});
const own: SphCase = built.engineCase;
const dp = own.dp;
const vessel = own.walls!.vessel!;
// The wall at the device's spacing.
const { dp: _wallDp, ...elastic } = vessel.elastic!;
const atDevice: SphCase = {
  ...own,
  walls: {
    ...own.walls,
    vessel: {
      ...vessel,
      wallLayers: Math.min(16, Math.max(3, Math.round((thickness * 1e-3) / dp))),
      elastic: { ...elastic, clamp: 2 * dp },
    },
  },
};
console.log(
  `resolution ${resolution}, device dp ${(dp * 1e3).toFixed(3)} mm, wall ${thickness} mm: own spacing ` +
    `${((vessel.elastic!.dp ?? dp) * 1e3).toFixed(3)} mm × ${vessel.wallLayers} layers, at the device's ` +
    `${atDevice.walls!.vessel!.wallLayers} layers; simulated ${time} ms`,
);
const figures: { name: string; particles: number; wall: number; steps: number; seconds: number }[] = [];
for (const [name, c] of [
  ['own spacing', own],
  ["device's spacing", atDevice],
] as const) {
  const dir = await mkdtemp(join(tmpdir(), 'wall-spacing-'));
  try {
    for (const [file, bytes] of Object.entries(built.files)) await writeFile(join(dir, file), bytes);
    const t0 = performance.now();
    const { status, manifest, sim } = await runCase(c, { caseDir: dir, outDir: join(dir, 'out') });
    const seconds = (performance.now() - t0) / 1000;
    const steps = sim.contact?.counters.steps ?? 0;
    const count = (object: string) => manifest.objects.find((o) => o.name === object)?.particleCount ?? 0;
    const row = { name, particles: count('device') + count('anatomy'), wall: count('anatomy') };
    figures.push({ ...row, steps, seconds });
    const rows = (await readFile(join(dir, 'out', 'monitors.csv'), 'utf8')).trim().split('\n');
    console.log(
      `${name}: ${status}, particles ${row.particles} (wall ${row.wall}), ${steps} steps, ` +
        `${seconds.toFixed(1)} s, ${((1000 * seconds) / steps).toFixed(1)} ms/step\n  ${rows[0]}\n  ${rows.at(-1)}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const [a, b] = figures as [(typeof figures)[number], (typeof figures)[number]];
console.log(
  `device's spacing / own spacing: particles ${(b.particles / a.particles).toFixed(2)}×, wall particles ` +
    `${(b.wall / a.wall).toFixed(2)}×, time per step ${(b.seconds / b.steps / (a.seconds / a.steps)).toFixed(2)}×`,
);
