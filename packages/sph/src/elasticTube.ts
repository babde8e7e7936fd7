import { elasticContactBody } from './contact';
import { DeviceExpansion, ringParticles } from './expansion';
import { lameDisplacement } from './lame';
import type { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';

/**
 * A device ring expanded into an elastic tube (the solid kind's elastic anatomy, docs/decisions/
 * solid-contact-pressure.md), 2D plane strain, through the product's own path (`DeviceExpansion`: geometric crimp,
 * the sheath opening, the release; the anatomy an elastic contact body), against Lamé's thick-walled cylinders:
 * - **tube alone**: the interface pressure p the tube's inner wall displacement u_t implies, p = u_t / u_t(p = 1)
 *   (Lamé, internal pressure, outer surface free): checks the contact's force transfer and the tube's elasticity,
 *   whatever the interference the contact layer takes;
 * - **shrink fit**: the interference δ (the device's free outer radius minus the tube's inner radius) shared by the
 *   two cylinders, p = δ / (u_t(b; p_i = 1) − u_d(b; p_o = 1)) (the tube opening, the device closing under p): the
 *   whole pressure–displacement relation, which the contact layer's compliance (a fraction of dp) departs from by
 *   O(dp).
 * The measured pressure is the expansion's `lineLoad` (in 2D the mean contact pressure over the circle).
 */
export interface ElasticTubeOptions {
  /** Particle spacing, m (default 0.05: four particles across the device's wall 0.8 … 1). */
  dp?: number;
  /**
   * The tube's own spacing, m (default dp): an anatomy coarser than the device (the case file's
   * `walls.vessel.elastic.dp`); the contact then takes the larger spacing's kernel.
   */
  tubeDp?: number;
  /** Device ring radii, m (default 0.8 and 1). */
  deviceInner?: number;
  deviceOuter?: number;
  /** Tube's inner radius, m (default 0.97: an interference of 3 % of the device's radius) and wall thickness (0.2). */
  tubeInner?: number;
  tubeThickness?: number;
  /** Young's moduli (default device 20 MPa, tube 1 MPa) and Poisson's ratios (0.3 and 0.45: a tissue's). */
  deviceModulus?: number;
  tubeModulus?: number;
  devicePoisson?: number;
  tubePoisson?: number;
}

export interface ElasticTubeResult {
  dp: number;
  /** The tube's spacing, m. */
  tubeDp: number;
  particles: number;
  /** The tube's particles (of `particles`). */
  tubeParticles: number;
  steps: number;
  /** Interference δ, m. */
  interference: number;
  /** The expansion's line load at the end: the mean contact pressure, Pa. */
  pressure: number;
  /** Its peak contact pressure (a particle's), Pa, read on the tube and on the device (`peakDevicePressure`). */
  peakPressure: number;
  peakDevicePressure: number;
  /** Mean radial displacement of the tube's inner ring of particles, m. */
  tubeDisplacement: number;
  /** Lamé: the pressure the tube's displacement implies, and the shrink fit's pressure, Pa. */
  lameFromTube: number;
  lameShrinkFit: number;
  /** Kinetic energy over the strain energy scale p² π (c² − b²) / E_t at the end (quasi-static when small). */
  kinetic: number;
}

/** Runs the case to its static state (mass damping at each body's breathing mode) and measures it. */
export function ringInElasticTube(o: ElasticTubeOptions = {}): ElasticTubeResult {
  const dp = o.dp ?? 0.05;
  const tubeDp = o.tubeDp ?? dp;
  const [a, b] = [o.deviceInner ?? 0.8, o.deviceOuter ?? 1];
  const t0 = o.tubeInner ?? 0.97;
  const t1 = t0 + (o.tubeThickness ?? 0.2);
  const Ed = o.deviceModulus ?? 20e6;
  const Et = o.tubeModulus ?? 1e6;
  const nud = o.devicePoisson ?? 0.3;
  const nut = o.tubePoisson ?? 0.45;
  const rho = 1000;
  // Breathing modes: ω ≈ c₀ / R with c₀ the bulk wave speed, as `lameRing` damps.
  const omega = (E: number, nu: number, R: number) => Math.sqrt(E / (3 * (1 - 2 * nu)) / rho) / R;
  const device = new ElasticSolid(ringParticles(2, dp, a, b, rho), {
    dim: 2,
    dp,
    material: { model: 'neo_hookean', rho0: rho, youngsModulus: Ed, poissonRatio: nud },
    damping: omega(Ed, nud, b),
  });
  const tubeOmega = omega(Et, nut, t1);
  const tube = new ElasticSolid(ringParticles(2, tubeDp, t0, t1, rho), {
    dim: 2,
    dp: tubeDp,
    material: { model: 'neo_hookean', rho0: rho, youngsModulus: Et, poissonRatio: nut },
    damping: tubeOmega,
  });
  const settle = 25 / tubeOmega;
  const expansion = new DeviceExpansion({
    device,
    dp,
    axis: { origin: [0, 0, 0] },
    crimp: 0.9,
    anatomy: [{ body: elasticContactBody(tube, tubeDp) }],
    expansionTime: settle,
    releaseTime: settle,
  });
  expansion.run(4);
  const last = expansion.records.at(-1)!;
  const innerRing = t0 + 0.5 * ((t1 - t0) / Math.max(1, Math.round((t1 - t0) / tubeDp)));
  // The innermost ring of particles (at t0 + step/2, step ≈ the tube's spacing).
  const tubeDisplacement = meanRadialDisplacement(tube, (r0) => r0 < t0 + tubeDp);
  const unitTube = lameDisplacement(innerRing, {
    inner: t0,
    outer: t1,
    innerPressure: 1,
    outerPressure: 0,
    youngsModulus: Et,
    poissonRatio: nut,
  });
  const unitDevice = lameDisplacement(b, {
    inner: a,
    outer: b,
    innerPressure: 0,
    outerPressure: 1,
    youngsModulus: Ed,
    poissonRatio: nud,
  });
  const unitTubeAtB = lameDisplacement(t0, {
    inner: t0,
    outer: t1,
    innerPressure: 1,
    outerPressure: 0,
    youngsModulus: Et,
    poissonRatio: nut,
  });
  const interference = b - t0;
  const p = last.lineLoad;
  return {
    dp,
    tubeDp,
    particles: device.particles.count + tube.particles.count,
    tubeParticles: tube.particles.count,
    steps: expansion.simulation.counters.steps,
    interference,
    pressure: p,
    peakPressure: last.peakContactPressure,
    peakDevicePressure: last.peakDevicePressure,
    tubeDisplacement,
    lameFromTube: tubeDisplacement / unitTube,
    lameShrinkFit: interference / (unitTubeAtB - unitDevice),
    kinetic: (device.kineticEnergy() + tube.kineticEnergy()) / ((p * p * Math.PI * (t1 * t1 - t0 * t0)) / Et),
  };
}

/** Mean radial displacement of the particles whose reference radius passes `select`, m (rigid drift removed). */
function meanRadialDisplacement(solid: ElasticSolid, select: (r0: number) => boolean): number {
  const p: ParticleArrays = solid.particles;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < p.count; i++) {
    mx += p.x[i]! - solid.x0[i]!;
    my += p.y[i]! - solid.y0[i]!;
  }
  mx /= p.count;
  my /= p.count;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < p.count; i++) {
    const r0 = Math.hypot(solid.x0[i]!, solid.y0[i]!);
    if (!select(r0)) continue;
    sum += ((p.x[i]! - solid.x0[i]! - mx) * solid.x0[i]! + (p.y[i]! - solid.y0[i]! - my) * solid.y0[i]!) / r0;
    n++;
  }
  return n > 0 ? sum / n : 0;
}
