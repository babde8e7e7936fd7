// The friction check of docs/validation.md ("Friction holds an expanded device"), one run per call:
//   node --import tsx packages/sph/scripts/tube-friction.ts <μ> [load m/s², default 0.5]
// (environment KT and ZETA: the friction's tangential stiffness factor and damping fraction, defaults 0.5 and 0.2).
// A tube (radii 0.3 … 0.5, length 0.2, dp 0.05, neo-Hookean E = 1 MPa, ν = 0.3, mass damping 60 1/s) crimped to 0.8,
// expanded into a rigid tube of radius 0.48 over 0.35 s, released, and loaded along its axis (ramped over the first
// half of the 0.175 s release). Prints the records, the outer layer's RMS axial velocity every 40 steps, the axial
// shift against the frictionless and the kinetic damped equations of motion, and the final mean axial velocity
// against the kinetic terminal speed (a − μN/M)/η with N the friction's normal load.
import { rigidContactBody } from '../src/contact';
import { DeviceExpansion, cylinderWall, ringParticles } from '../src/expansion';
import { ElasticSolid } from '../src/solid';

const material = { model: 'neo_hookean' as const, rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 };
const dp = 0.05;
const eta = 60;
const friction = Number(process.argv[2] ?? 0);
const accel = Number(process.argv[3] ?? 0.5);
const device = new ElasticSolid(ringParticles(3, dp, 0.3, 0.5, 1000, [0, 0, 0], 0.2), {
  dim: 3,
  dp,
  material,
  damping: eta,
});
const axis = { o: [0, 0, 0] as const, a: [0, 0, 1] as const };
const wall = rigidContactBody(cylinderWall(3, dp, 0.48, axis, -0.4, 0.4), dp);
const contact = {
  friction,
  tangentialStiffness: Number(process.env.KT ?? 0.5),
  tangentialDamping: Number(process.env.ZETA ?? 0.2),
};
const e = new DeviceExpansion({
  device,
  dp,
  axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
  crimp: 0.8,
  anatomy: [{ body: wall, contact }],
  expansionTime: 0.35,
  load: [0, 0, accel],
});
const p = device.particles;
const outer = e.simulation.bodies[0]!.outer;
const rms = (): number => {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < p.count; i++) {
    if (outer[i] !== 1) continue;
    sum += p.vz[i]! ** 2;
    n++;
  }
  return Math.sqrt(sum / n);
};
const history: string[] = [];
const before = e.simulation.beforeStep;
e.simulation.beforeStep = (t, dt) => {
  before?.(t, dt);
  if (e.simulation.counters.steps % 40 === 0) history.push(`${t.toFixed(3)}:${rms().toExponential(1)}`);
};
const t0 = Date.now();
e.run(10);
const seconds = (Date.now() - t0) / 1000;
for (const r of e.records) {
  console.log(r.time.toFixed(3), r.phase, r.contactForce.toExponential(3), r.axialShift.toExponential(3));
}
console.log('outer layer RMS axial velocity (t:m/s):', history.join(' '));
let mass = 0;
let vm = 0;
for (let i = 0; i < p.count; i++) {
  mass += p.mass[i]!;
  vm += p.vz[i]!;
}
vm /= p.count;
const pair = e.simulation.pairs[1]!;
const N = pair.normalLoad;
const stop = (friction * N) / mass;
// x'' = a f(t) − η x' (frictionless) and, with friction, − (μN/M) sign(x') while sliding, stuck while |a f| ≤ μN/M.
let [x, v, x0, v0] = [0, 0, 0, 0];
const h = 1e-5;
for (let t = e.expansionTime; t < e.expansionTime + e.releaseTime - 1e-12; t += h) {
  const drive = accel * e.loadFactor(t + h / 2);
  const a0 = drive - eta * v0;
  x0 += h * (v0 + (h / 2) * a0);
  v0 += h * a0;
  if (v === 0 && Math.abs(drive) <= stop) continue;
  const a = drive - eta * v - stop * Math.sign(v !== 0 ? v : drive);
  const next = v + h * a;
  if (v !== 0 && Math.sign(next) !== Math.sign(v)) {
    v = 0;
    continue;
  }
  x += h * (v + (h / 2) * a);
  v = next;
}
const shift = e.records.at(-1)!.axialShift;
console.log(
  JSON.stringify({
    friction,
    accel,
    mass,
    normalLoad: N,
    muNeeded: (mass * accel) / N,
    shift,
    frictionless: x0,
    kinetic: x,
    shiftOverFrictionless: shift / x0,
    meanAxialVelocity: vm,
    terminal: (accel - stop) / eta,
    axialContactForce: pair.totalForce()[2],
    steps: e.simulation.counters.steps,
    seconds,
  }),
);
