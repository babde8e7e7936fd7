import { ContactSimulation, elasticContactBody, rigidContactBody, type ContactPair } from './contact';
import { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';

/** Settings of the Hertz line-contact case (SI units). */
export interface HertzCylinderOptions {
  /** Particles per cylinder radius, R/dp (default 20). */
  resolution?: number;
  /** Cylinder radius R, m (default 1). */
  radius?: number;
  /** Young's modulus, Pa (default 1e6). */
  youngsModulus?: number;
  /** Poisson's ratio (default 0.3). */
  poissonRatio?: number;
  /** Density, kg/m³ (default 1000). */
  density?: number;
  /** Load as ρgR/E* (default 0.015: contact half-width ≈ 0.17 R, peak pressure ≈ 0.087 E*). */
  load?: number;
  /** Mass damping η in units of c₀/R (default 1). */
  damping?: number;
  /** Contact stiffness factor (`ContactPairOptions.stiffness`, default 1). */
  stiffness?: number;
}

/** Hertz's plane-strain line contact of a cylinder of radius R on a rigid flat under a load P per unit length. */
export function hertzLineContact(
  load: number,
  radius: number,
  youngsModulus: number,
  poissonRatio: number,
): { halfWidth: number; peakPressure: number } {
  const eStar = youngsModulus / (1 - poissonRatio * poissonRatio);
  const halfWidth = Math.sqrt((4 * load * radius) / (Math.PI * eStar));
  return { halfWidth, peakPressure: (2 * load) / (Math.PI * halfWidth) };
}

/** What the case gives: the simulation, its contact and the load per unit length, N/m. */
export interface HertzCylinderCase {
  simulation: ContactSimulation;
  solid: ElasticSolid;
  contact: ContactPair;
  /** Load per unit length, N/m (the half cylinder's weight). */
  load: number;
  /** Hertz's contact half-width (m) and peak pressure (Pa) for that load. */
  analytic: { halfWidth: number; peakPressure: number };
  /** Time to settle, s (the run's end). */
  endTime: number;
}

/**
 * The Hertz contact problem in 2D (plane strain): the lower half of an elastic cylinder of radius R (flat face up)
 * rests under its own weight on a rigid flat (three layers of wall particles below y = 0), starting 1.6 dp above
 * the contact range. A uniform body force loads it; mass damping η brings it to rest (quasi-static). Hertz's theory
 * holds for a contact half-width b ≪ R; the default load gives b ≈ 0.17 R.
 */
export function hertzCylinder(options: HertzCylinderOptions = {}): HertzCylinderCase {
  const n = options.resolution ?? 20;
  const R = options.radius ?? 1;
  const E = options.youngsModulus ?? 1e6;
  const nu = options.poissonRatio ?? 0.3;
  const rho = options.density ?? 1000;
  const dp = R / n;
  const stiffness = options.stiffness ?? 1;
  const eStar = E / (1 - nu * nu);
  const g = ((options.load ?? 0.015) * eStar) / (rho * R);
  // The half disc is built of rings (radii R − (k + ½) dp, arcs of about dp) so that its surface is the circle:
  // a lattice disc's staircase puts a flat row of particles at the bottom, which pressed on a flat gives a flat
  // punch's saddle-shaped pressure, not Hertz's ellipse. Its lowest point is 1.6 dp above the flat's surface, so the
  // particle distance across the gap (≥ 2.6 dp) starts beyond the 2h = 2.6 dp cut-off.
  const yc = R + 1.6 * dp;
  const disc = new ParticleArrays(2, 4 * n * n);
  for (let k = 0; k < n; k++) {
    const r = R - (k + 0.5) * dp;
    const count = Math.max(1, Math.round((Math.PI * r) / dp));
    const vol = (Math.PI * ((r + 0.5 * dp) ** 2 - Math.max(0, r - 0.5 * dp) ** 2)) / 2 / count;
    for (let m = 0; m < count; m++) {
      const theta = Math.PI + ((m + 0.5) * Math.PI) / count;
      disc.add(r * Math.cos(theta), yc + r * Math.sin(theta), 0, vol, rho);
    }
  }
  const half = Math.ceil((0.6 * R) / dp);
  const wall = new ParticleArrays(2, 2 * half * 3);
  for (let layer = 0; layer < 3; layer++) {
    for (let i = -half; i < half; i++) {
      const k = wall.add((i + 0.5) * dp, -(layer + 0.5) * dp, 0, dp * dp, rho);
      wall.ny[k] = 1;
    }
  }
  const material = { model: 'linear_elastic' as const, rho0: rho, youngsModulus: E, poissonRatio: nu };
  const c0 = Math.sqrt(E / (3 * (1 - 2 * nu)) / rho);
  const solid = new ElasticSolid(disc, {
    dim: 2,
    dp,
    material,
    gravity: [0, -g, 0],
    damping: (options.damping ?? 1) * (c0 / R),
    acousticCfl: 0.6 / Math.sqrt(Math.max(1, stiffness)),
  });
  const simulation = new ContactSimulation(
    [elasticContactBody(solid, dp), rigidContactBody(wall, dp)],
    [{ a: 0, b: 1, stiffness }],
  );
  let mass = 0;
  for (let i = 0; i < disc.count; i++) mass += disc.mass[i]!;
  const load = mass * g;
  return {
    simulation,
    solid,
    contact: simulation.pairs[0]!,
    load,
    analytic: hertzLineContact(load, R, E, nu),
    endTime: 40 * (R / c0),
  };
}

/** The contact's figures measured on the flat. */
export interface HertzMeasurement {
  /** Total normal force on the flat, N/m. */
  force: number;
  /** Peak contact pressure on the flat, Pa. */
  peakPressure: number;
  /** Contact half-width from the pressure's second moment, b = 2√(∫p x² / ∫p) (exact for Hertz's ellipse), m. */
  halfWidth: number;
}

/**
 * Measures the contact on the flat (body b of `contact`): the pressure of its surface particles
 * (`ContactPair.pressure`), its sum times dp, its maximum and the half-width from its second moment about the
 * pressure's centre (Hertz's p₀√(1 − x²/b²) has ∫p x² / ∫p = b²/4).
 */
export function measureHertz(contact: ContactPair): HertzMeasurement {
  const p = contact.pressure('b');
  const wall = contact.b.particles;
  let force = 0;
  let first = 0;
  let peak = 0;
  for (let s = 0; s < wall.count; s++) {
    const area = Math.sqrt(wall.vol[s]!);
    force += p[s]! * area;
    first += p[s]! * area * wall.x[s]!;
    peak = Math.max(peak, p[s]!);
  }
  const centre = first / force;
  let second = 0;
  for (let s = 0; s < wall.count; s++) second += p[s]! * Math.sqrt(wall.vol[s]!) * (wall.x[s]! - centre) ** 2;
  return { force, peakPressure: peak, halfWidth: 2 * Math.sqrt(second / force) };
}
