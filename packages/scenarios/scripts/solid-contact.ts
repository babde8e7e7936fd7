// The solid kind's contact pressure, traced (docs/decisions/solid-contact-pressure.md), one run per call:
//   node --import tsx packages/scenarios/scripts/solid-contact.ts [resolution test|coarse|standard] [crimp 0.7]
//     [simulated time ms, default the kind's 2] [material nitinol|stainless_316l|cobalt_chromium_l605]
//     [anatomy elastic|rigid, default the kind's elastic wall]
// The journey's ring (a torus of major radius 0.95 and tube radius 0.15 of the annulus radius: 10 % wider than the
// annulus) snapped to the aortic annulus of synthetic patient 20261125/7, built by the scenarios' solid kind and run
// by the engine's case runner, as the server does. Prints the monitors (the CSV a user downloads) and, per saved
// timestep, the quasi-static references of an elastic ring pressed into a rigid round tube (`ringInTubeReference`):
// the hoop force from the measured diameter, the contact force it implies (2π × hoop force; less where the lumen is
// not round and the ring touches only part of it), and Hertz's line contact of the ring's tube (radius a) on the wall
// with that line load (peak p₀ and half-width b), and the impact pressure ρ c v of the sheath's opening speed.
// STOP_MS (environment) stops the run early with the case's timing unchanged.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePatient } from '@insilico/anatomy';
import { ringInTubeReference, runCase } from '@insilico/sph';
import { annulusPlacement, buildScenario, ringDeviceMesh, simulatedRegion, type Resolution } from '../src/index';
import { materialOf } from '../src/materials';

const resolution = (process.argv[2] ?? 'test') as Resolution;
const crimp = Number(process.argv[3] ?? 0.7);
const time = process.argv[4] ? Number(process.argv[4]) : undefined;
const material = (process.argv[5] ?? 'nitinol') as 'nitinol';
const rigidAnatomy = process.argv[6] === 'rigid';
const MMHG = 133.322387415;

const patient = generatePatient(20261125, 7);
const region = simulatedRegion(patient, 'end-diastole');
const r = patient.cardiac.aorticAnnulusDiameter_mm / 2;
const R0 = 0.95 * r; // centre-line radius of the ring, mm
const a = 0.15 * r; // tube radius, mm
const built = buildScenario({
  patient,
  phase: 'end-diastole',
  kind: 'solid',
  resolution,
  parameters: {
    crimpRatio: crimp,
    material,
    rigidAnatomy,
    ...(time !== undefined ? { simulatedTime_ms: time } : {}),
  },
  devices: [{ name: 'Ring', transform: annulusPlacement(region, 0), meshes: [ringDeviceMesh(R0, a)] }],
});
const m = materialOf(material);
const E = m.youngsModulus;
const nu = m.poissonRatio;
const c = Math.sqrt((E * (1 - nu)) / (m.density * (1 + nu) * (1 - 2 * nu)));
const eCase = built.engineCase;
const exp = eCase.solids[0]!.expansion!;
const dp = built.estimate.dp_mm;
console.log(
  `resolution ${resolution}: annulus radius ${r.toFixed(2)} mm, ring R ${R0.toFixed(2)} a ${a.toFixed(2)} mm ` +
    `(outer ${(R0 + a).toFixed(2)}), dp ${dp.toFixed(3)} mm, a/dp ${(a / dp).toFixed(2)}, ${built.estimate.particles} ` +
    `particles, ${built.estimate.steps} steps, end ${(eCase.endTime * 1e3).toFixed(4)} ms, crimp ${crimp}, E ${E / 1e9} GPa, ` +
    `anatomy ${rigidAnatomy ? 'rigid' : `elastic ${JSON.stringify(eCase.walls?.vessel?.elastic)}`}`,
);
// The elastic wall's thin-cylinder reference (Timoshenko & Woinowsky-Krieger §114): a ring load P (N/m) on an
// infinite cylinder (radius R, thickness t, modulus E) moves it out by w₀ = P β / (2k), k = E t / R², β⁴ = 3(1 − ν²) /
// (R t)²; so the line load from the wall's stretch w₀ = D/2 − r (the device's outer radius over the annulus radius).
const wall = eCase.walls?.vessel?.elastic;
const thinCylinderLineLoad = (D_mm: number): number => {
  if (!wall) return Number.NaN;
  const t = built.parameters.wallThickness_mm! * 1e-3;
  const R = r * 1e-3 + t / 2;
  const nuW = wall.material.poissonRatio;
  const beta = (3 * (1 - nuW * nuW)) ** 0.25 / Math.sqrt(R * t);
  const k = (wall.material.youngsModulus * t) / (R * R);
  return (2 * k * Math.max(0, D_mm / 2 - r) * 1e-3) / beta;
};
// The sheath opens from crimp × nominal to 1.15 × nominal over the expansion time on a smoothstep (peak speed 1.5 ×
// the mean): the device follows it until the wall stops it, so it reaches the wall at up to that speed.
const sheathSpeed = (1.5 * (1.15 - crimp) * (R0 + a) * 1e-3) / exp.expansionTime;
console.log(
  `sheath peak speed ${sheathSpeed.toFixed(2)} m/s; impact pressure ρ c v ${((m.density * c * sheathSpeed) / 1e6).toFixed(0)} MPa ` +
    `(${((m.density * c * sheathSpeed) / MMHG).toExponential(2)} mmHg); breathing period ${(((2 * Math.PI * R0 * 1e-3) / Math.sqrt(E / m.density)) * 1e3).toFixed(4)} ms`,
);

const dir = await mkdtemp(join(tmpdir(), 'solid-contact-'));
try {
  for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
  const t0 = performance.now();
  // STOP_MS (environment): stop there, the case's timing (sheath ramp, release) unchanged.
  const stop = process.env.STOP_MS ? Number(process.env.STOP_MS) / 1000 : eCase.endTime;
  const { status } = await runCase({ ...eCase, endTime: stop }, { caseDir: dir, outDir: join(dir, 'out') });
  console.log(`status ${status}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const rows = (await readFile(join(dir, 'out', 'monitors.csv'), 'utf8')).trim().split('\n');
  const header = rows[0]!.split(',');
  const col = (row: string[], name: string) => Number(row[header.indexOf(name)]);
  const dName = header.find((h) => h.includes('device_diameter'))!;
  console.log(
    't (ms)\tD (mm)\tmax p (MPa)\tmax p (mmHg)\tforce (N)\tline load (N/mm)\tthin-cylinder line load (N/mm)\tvM (MPa)\taxial (mm)\t| ring: hoop strain\tF=2πT (N)\tq (N/m)\tHertz b (mm)\tHertz p0 (MPa)\tq/dp (MPa)',
  );
  for (const line of rows.slice(1)) {
    const row = line.split(',');
    const D = col(row, dName);
    // The ring's centre-line radius from its measured outer diameter (its cross-section taken as round).
    const ref = ringInTubeReference({
      nominalRadius: R0 * 1e-3,
      radius: (D / 2 - a) * 1e-3,
      tube: a * 1e-3,
      youngsModulus: E,
      poissonRatio: nu,
    });
    const [strain, q, b, p0] = [ref.strain, ref.lineLoad, ref.halfWidth, ref.peakPressure];
    console.log(
      [
        (col(row, 'time (s)') * 1e3).toFixed(4),
        D.toFixed(3),
        (col(row, 'max contact_pressure (Pa)') / 1e6).toFixed(1),
        col(row, 'max contact_pressure (mmHg)').toExponential(2),
        col(row, 'total contact_force (N)').toExponential(3),
        col(row, 'mean line_load (N/mm)').toExponential(3),
        (thinCylinderLineLoad(D) / 1000).toExponential(3),
        col(row, 'max von_mises_stress (MPa)').toFixed(0),
        col(row, 'device axial_displacement (mm)').toFixed(3),
        '|',
        strain.toFixed(4),
        ref.contactForce.toExponential(3),
        q.toExponential(3),
        (b * 1e3).toFixed(3),
        (p0 / 1e6).toFixed(0),
        (q / (dp * 1e-3) / 1e6).toFixed(0),
      ].join('\t'),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
