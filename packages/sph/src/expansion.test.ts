import { describe, expect, it } from 'vitest';
import { elasticContactBody, rigidContactBody } from './contact';
import { DeviceExpansion, cylinderWall, ringParticles } from './expansion';
import { ElasticSolid } from './solid';

const material = { model: 'neo_hookean' as const, rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 };
const dp = 0.05;
const [inner, outer] = [0.8, 1];

/**
 * A ring of radii 0.8 … 1 (plane strain, dp 0.05: four particles across), crimped to 0.8 of its diameter, expanded
 * over 0.7 s (about 20 times the breathing mode's period over 2π) with mass damping at about that mode's frequency.
 */
function expansion(vesselRadius: number | null, friction = 0, crimpTime?: number): DeviceExpansion {
  const device = new ElasticSolid(ringParticles(2, dp, inner, outer, 1000), { dim: 2, dp, material, damping: 30 });
  const axis = { o: [0, 0, 0] as const, a: [0, 0, 1] as const };
  const anatomy =
    vesselRadius === null
      ? []
      : [{ body: rigidContactBody(cylinderWall(2, dp, vesselRadius, axis), dp), contact: { friction } }];
  return new DeviceExpansion({
    device,
    dp,
    axis: { origin: [0, 0, 0] },
    crimp: 0.8,
    anatomy,
    expansionTime: 0.7,
    ...(crimpTime !== undefined ? { crimpTime } : {}),
  });
}

describe('device expansion (crimped ring, controlled by a sheath, then released)', () => {
  it('expands freely to its nominal diameter, round and unstressed', () => {
    const run = expansion(null);
    const records = run.run(5);
    const first = records[0]!;
    const last = records.at(-1)!;
    expect(first.diameter[0]!).toBeLessThan(0.9 * 2 * outer);
    expect(first.peakVonMises).toBeGreaterThan(1e5);
    expect(Math.abs(last.diameter[0]! / (2 * outer) - 1)).toBeLessThan(0.001);
    expect(last.ovality[0]!).toBeLessThan(0.001);
    expect(last.peakVonMises).toBeLessThan(1e-3 * first.peakVonMises);
    expect(last.contactForce).toBe(0);
    // The diameter grows through the expansion phase (records at 1/5 … 5/5 of it).
    const expanding = records.filter((r) => r.phase === 'expansion').map((r) => r.diameter[0]!);
    for (let k = 1; k < 3; k++) expect(expanding[k]!).toBeGreaterThan(expanding[k - 1]!);
  }, 30_000);

  it('crimped by the sheath from its nominal shape (crimpTime): crimped, then stops at a tube it overlapped at first', () => {
    // The ring (outer radius 1) starts through the tube's wall (radius 0.98): the anatomy's contact waits for the
    // crimp. After the crimp the ring is at the crimped radius, then it ends where the geometric crimp's run ends.
    const R = 0.98;
    const run = expansion(R, 0, 0.7);
    const records = run.run(5);
    const crimped = records.filter((r) => r.phase === 'crimp').at(-1)!;
    const radiusCrimped = crimped.diameter[0]! / 2;
    // The sheath is at 0.8 at the crimp's end: the ring within a spacing of it (measured 0.836: the sheath's contact
    // layer and the ring's lag behind it).
    expect(Math.abs(radiusCrimped - 0.8 * outer)).toBeLessThan(dp);
    expect(records.filter((r) => r.phase === 'crimp').every((r) => r.contactForce === 0)).toBe(true);
    const last = records.at(-1)!;
    expect(Math.abs(last.diameter[0]! / 2 - R)).toBeLessThan(0.1 * dp);
    // An elastic, damped end state does not depend on how the ring got crimped (measured: 6e-10 apart).
    const geometric = expansion(R).run(5).at(-1)!;
    expect(Math.abs(last.contactForce / geometric.contactForce - 1)).toBeLessThan(1e-3);
  }, 30_000);

  it('inside a rigid tube of radius 0.98 it stops at the tube, with the Lamé interference pressure', () => {
    const R = 0.98;
    const run = expansion(R);
    const last = run.run(5).at(-1)!;
    const radius = last.diameter[0]! / 2;
    // The surfaces overlap by a small part of dp (contact by repulsion): stops at the tube within 0.1 dp.
    expect(Math.abs(radius - R)).toBeLessThan(0.1 * dp);
    // Lamé (plane strain): a free inner face at a, outer radius b displaced by u < 0 needs the pressure
    // p = −u E / (b (1 + ν)) / ((1 − ν)(a² + b²)/(b² − a²) − ν). Compare the mean pressure on the ring's outer face
    // (the total normal force over its circumference) at the measured displacement.
    const { youngsModulus: E, poissonRatio: nu } = material;
    const u = radius - outer;
    const lame =
      (-u * E) / (outer * (1 + nu)) / (((1 - nu) * (inner ** 2 + outer ** 2)) / (outer ** 2 - inner ** 2) - nu);
    const mean = last.contactForce / (2 * Math.PI * radius);
    expect(Math.abs(mean / lame - 1)).toBeLessThan(0.06);
    // Nearly uniform round the tube: the peak is within 15 % of the mean on the tube's face (radius R); the rest is
    // the particle-scale beat of 126 ring particles against 124 tube particles per turn.
    expect(last.peakContactPressure / (last.contactForce / (2 * Math.PI * R))).toBeLessThan(1.15);
    expect(last.ovality[0]!).toBeLessThan(0.005);
    expect(last.peakVonMises).toBeGreaterThan(0);
  }, 30_000);

  it('inside an elastic vessel (0.97 … 1.3, E/2) both rings meet at the Lamé shrink-fit pressure', () => {
    const [c, d] = [0.97, 1.3];
    const soft = { ...material, youngsModulus: 5e5 };
    const vessel = new ElasticSolid(ringParticles(2, dp, c, d, 1000), { dim: 2, dp, material: soft, damping: 30 });
    const device = new ElasticSolid(ringParticles(2, dp, inner, outer, 1000), { dim: 2, dp, material, damping: 30 });
    const run = new DeviceExpansion({
      device,
      dp,
      axis: { origin: [0, 0, 0] },
      crimp: 0.8,
      anatomy: [{ body: elasticContactBody(vessel, dp) }],
      expansionTime: 0.7,
    });
    const last = run.run(5).at(-1)!;
    // The vessel's inner face: the mean radius of its innermost ring of particles minus half the ring spacing
    // (seven rings over 0.33: 0.047).
    const half = (d - c) / Math.round((d - c) / dp) / 2;
    const vp = vessel.particles;
    let sum = 0;
    let n = 0;
    for (let i = 0; i < vp.count; i++) {
      if (Math.hypot(vessel.x0[i]!, vessel.y0[i]!) > c + dp) continue;
      sum += Math.hypot(vp.x[i]!, vp.y[i]!) - half;
      n++;
    }
    const vesselRadius = sum / n;
    const deviceRadius = last.diameter[0]! / 2;
    expect(vesselRadius).toBeGreaterThan(c);
    expect(deviceRadius).toBeLessThan(outer);
    // Plane-strain Lamé: the pressure that squeezes the device's outer face by u_d, and the one that opens the
    // vessel's inner face by u_v; both must equal the contact pressure (total force over the circumference).
    const nu = material.poissonRatio;
    const pDevice =
      ((outer - deviceRadius) * material.youngsModulus) /
      (outer * (1 + nu)) /
      (((1 - nu) * (inner ** 2 + outer ** 2)) / (outer ** 2 - inner ** 2) - nu);
    const pVessel =
      ((vesselRadius - c) * soft.youngsModulus) /
      (c * (1 + nu)) /
      (((1 - nu) * (c ** 2 + d ** 2)) / (d ** 2 - c ** 2) + nu);
    const contact = last.contactForce / (2 * Math.PI * vesselRadius);
    expect(Math.abs(pDevice / contact - 1)).toBeLessThan(0.05);
    expect(Math.abs(pVessel / contact - 1)).toBeLessThan(0.05);
    // Action and reaction: the forces on the two bodies cancel particle pair by pair.
    const pair = run.simulation.pairs[1]!;
    const fa = pair.totalForce();
    let fb = [0, 0, 0];
    for (let i = 0; i < vp.count; i++) fb = fb.map((v, k) => v + pair.forceB[3 * i + k]!);
    for (let k = 0; k < 3; k++) expect(Math.abs(fa[k]! + fb[k]!)).toBeLessThan(1e-9 * last.contactForce);
  }, 30_000);

  it('3D: a tube (radii 0.3 … 0.5, length 0.2) expands freely to its nominal diameter and stops in a rigid tube', () => {
    // Four particles across the wall: with two (dp 0.1) the 3D tube is unstable at rest (tried).
    const run3d = (vessel: number | null): DeviceExpansion => {
      const tube = ringParticles(3, dp, 0.3, 0.5, 1000, [0, 0, 0], 0.2);
      const device = new ElasticSolid(tube, { dim: 3, dp, material, damping: 60 });
      const axis = { o: [0, 0, 0] as const, a: [0, 0, 1] as const };
      const anatomy =
        vessel === null ? [] : [{ body: rigidContactBody(cylinderWall(3, dp, vessel, axis, -0.3, 0.3), dp) }];
      return new DeviceExpansion({
        device,
        dp,
        axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
        crimp: 0.8,
        anatomy,
        expansionTime: 0.35,
      });
    };
    const free = run3d(null).run(2).at(-1)!;
    expect(Math.abs(free.diameter[0]! - 1)).toBeLessThan(0.001);
    expect(free.ovality[0]!).toBeLessThan(0.001);
    const R = 0.49;
    const held = run3d(R).run(2).at(-1)!;
    const radius = held.diameter[0]! / 2;
    expect(Math.abs(radius - R)).toBeLessThan(0.1 * dp);
    // A short tube with free ends lies between plane stress and plane strain: the mean pressure on its outer face
    // lies between Lamé's two values for the measured displacement.
    const { youngsModulus: E, poissonRatio: nu } = material;
    const [a, b] = [0.3, 0.5];
    const k = (a ** 2 + b ** 2) / (b ** 2 - a ** 2);
    const planeStress = ((b - radius) * E) / (b * (k - nu));
    const planeStrain = ((b - radius) * E) / (b * (1 + nu)) / ((1 - nu) * k - nu);
    const mean = held.contactForce / (2 * Math.PI * radius * 0.2);
    expect(mean).toBeGreaterThan(planeStress);
    expect(mean).toBeLessThan(planeStrain);
  }, 60_000);

  // A tube (radii 0.3 … 0.5, length 0.2, 100.5 kg) expanded into a rigid tube of radius 0.48 (normal contact force
  // about 8,600 N), then loaded along its axis by 0.5 m/s² (50 N) after the release; mass damping η = 60 1/s.
  const R = 0.48;
  const accel = 0.5;
  const eta = 60;
  const loadedTube = (friction: number, onStep?: (e: DeviceExpansion) => void): DeviceExpansion => {
    const tube = ringParticles(3, dp, 0.3, 0.5, 1000, [0, 0, 0], 0.2);
    const device = new ElasticSolid(tube, { dim: 3, dp, material, damping: eta });
    const axis = { o: [0, 0, 0] as const, a: [0, 0, 1] as const };
    const wall = rigidContactBody(cylinderWall(3, dp, R, axis, -0.4, 0.4), dp);
    const e = new DeviceExpansion({
      device,
      dp,
      axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
      crimp: 0.8,
      anatomy: [{ body: wall, contact: { friction } }],
      expansionTime: 0.35,
      load: [0, 0, accel],
    });
    if (onStep) {
      const before = e.simulation.beforeStep;
      e.simulation.beforeStep = (time, dt) => {
        before?.(time, dt);
        onStep(e);
      };
    }
    e.run(2);
    return e;
  };
  /** Frictionless, the tube's mean axial motion is x'' = a f(t) − η x' (f the load's ramp), from the release. */
  const frictionlessShift = (e: DeviceExpansion): number => {
    let x = 0;
    let v = 0;
    const h = 1e-5;
    for (let t = e.expansionTime; t < e.expansionTime + e.releaseTime - 1e-12; t += h) {
      const a = accel * e.loadFactor(t + h / 2) - eta * v;
      x += h * (v + (h / 2) * a);
      v += h * a;
    }
    return x;
  };
  const meanAxialVelocity = (e: DeviceExpansion): number => {
    const p = e.device.particles;
    let sum = 0;
    for (let i = 0; i < p.count; i++) sum += p.vz[i]!;
    return sum / p.count;
  };

  it('3D: after the release a load along the axis slides the frictionless tube as the damped equation of motion says', () => {
    const free = loadedTube(0);
    const slid = free.records.at(-1)!;
    const x = frictionlessShift(free);
    expect(slid.axialShift / x - 1).toBeGreaterThan(-0.05);
    expect(slid.axialShift / x - 1).toBeLessThan(0.05);
    // The measuring plane moves with the device: the tube moved along the axis by more than its half-length (a plane
    // fixed in space would find no particle there) measures the same diameter, with the shift in its axial
    // displacement.
    const p = free.device.particles;
    for (let i = 0; i < p.count; i++) p.z[i] = p.z[i]! + 0.3;
    const moved = free.record();
    expect(moved.diameter[0]!).toBeCloseTo(slid.diameter[0]!, 12);
    expect(moved.axialShift - slid.axialShift).toBeCloseTo(0.3, 12);
  }, 60_000);

  it('3D: friction holds the loaded tube when μN exceeds the load, and lets it slide at the kinetic rate when not', () => {
    const mass = 1000 * Math.PI * (0.5 ** 2 - 0.3 ** 2) * 0.2;
    // Unloaded while it expands: the RMS axial velocity of the outer layer at t = 0.3 … 0.35 s (pressed on the wall)
    // stays quiet (frictionless about 3e-6 m/s; the explicit friction this replaced chattered there at 2–4e-2 m/s).
    let quiet = 0;
    const held = loadedTube(0.011, (e) => {
      const t = e.simulation.counters.time;
      if (t < 0.3 || t > e.expansionTime) return;
      const p = e.device.particles;
      const outer = e.simulation.bodies[0]!.outer;
      let sum = 0;
      let n = 0;
      for (let i = 0; i < p.count; i++) {
        if (outer[i] !== 1) continue;
        sum += p.vz[i]! ** 2;
        n++;
      }
      quiet = Math.max(quiet, Math.sqrt(sum / n));
    });
    const holdPair = held.simulation.pairs[1]!;
    // μN is about twice the load: the tube must not slide. It moves only by the elastic shear of the tube and the
    // friction's stick springs under the load (6.3 % of the frictionless slide measured), and comes to rest.
    expect(0.011 * holdPair.normalLoad).toBeGreaterThan(1.5 * mass * accel);
    expect(quiet).toBeLessThan(2e-5);
    const x = frictionlessShift(held);
    expect(held.records.at(-1)!.axialShift / x).toBeLessThan(0.1);
    expect(Math.abs(meanAxialVelocity(held))).toBeLessThan(0.01 * (accel / eta));
    // μN about half the load: the tube slides; at the end (five damping times after the load's ramp) it moves at the
    // terminal speed of M x'' = M a − μN − M η x', N the friction's normal load: (a − μN/M)/η.
    const sliding = loadedTube(0.00276);
    const pair = sliding.simulation.pairs[1]!;
    expect(0.00276 * pair.normalLoad).toBeLessThan(0.6 * mass * accel);
    const terminal = (accel - (0.00276 * pair.normalLoad) / mass) / eta;
    expect(Math.abs(meanAxialVelocity(sliding) / terminal - 1)).toBeLessThan(0.08);
  }, 90_000);
});
