import type { ElasticModel } from './material';
import { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';
import type { GradientOrder } from './solidGradient';

/**
 * Lamé's thick-walled cylinder (issue 15 item 7): a 2D ring a < r < b in plane strain under the internal pressure p, the
 * outer surface free. Lamé's solution (e.g. Timoshenko & Goodier, Theory of Elasticity, 3rd ed. 1970, §28; Barber,
 * Elasticity, §8.3.1):
 *   σ_r = p a²/(b² − a²) (1 − b²/r²),  σ_θ = p a²/(b² − a²) (1 + b²/r²),
 *   u_r = p a² (1 + ν) / (E (b² − a²)) · [(1 − 2ν) r + b²/r]   (plane strain, ε_z = 0).
 */

/** Geometry, material and load (SI units). */
export interface LameParameters {
  /** Inner radius a, m. */
  inner: number;
  /** Outer radius b, m. */
  outer: number;
  /** Young's modulus E, Pa. */
  youngsModulus: number;
  /** Poisson's ratio ν. */
  poissonRatio: number;
  /** Internal pressure p, Pa. */
  pressure: number;
}

/** Lamé's radial and hoop stresses (Pa) and radial displacement (m) at radius `r` (m), plane strain. */
export function lameSolution(r: number, o: LameParameters): { radialStress: number; hoopStress: number; ur: number } {
  const { inner: a, outer: b, pressure: p, youngsModulus: E, poissonRatio: nu } = o;
  const c = (p * a * a) / (b * b - a * a);
  return {
    radialStress: c * (1 - (b * b) / (r * r)),
    hoopStress: c * (1 + (b * b) / (r * r)),
    ur: ((c * (1 + nu)) / E) * ((1 - 2 * nu) * r + (b * b) / r),
  };
}

/** Settings of the SPH ring. */
export interface LameRingOptions extends Partial<LameParameters> {
  /** Particle spacing, m (the wall holds (b − a)/dp rings of particles). */
  dp: number;
  /** Density, kg/m³ (default 1000). */
  rho0?: number;
  /** Constitutive model (default 'linear_elastic'). */
  model?: ElasticModel;
  /** Solid gradient order (default the engine's, 1). */
  gradientOrder?: GradientOrder;
}

/** A Lamé ring ready to run. */
export interface LameRing {
  solid: ElasticSolid;
  parameters: LameParameters;
  /** Ring index of each particle (0 = innermost). */
  ring: Int32Array;
  /** Radius of each ring's particles in the reference configuration, m. */
  ringRadius: number[];
  /** Time to run for the static state, s. */
  settleTime: number;
}

/**
 * The ring as concentric circles of particles at r_k = a + (k + ½) dp, each with round(2π r_k / dp) particles of area
 * 2π r_k dp / n_k, so both surfaces are smooth circles (no lattice staircase). The pressure acts on the innermost circle
 * as an external force per particle p·a·Δθ along the outward radius (the traction on the arc a·Δθ of the inner
 * surface, as the tension test loads its end column); the load is self-equilibrated, so nothing is clamped. Mass
 * damping η = c₀/b (about the breathing mode's frequency) takes it to the static state; `settleTime` = 25/η.
 * Defaults: a = 1, b = 2, E = 1 MPa, ν = 0.3, p = 100 Pa (p/E = 10⁻⁴: small strain, so the St Venant–Kirchhoff
 * material is linear to 10⁻⁴).
 */
export function lameRing(o: LameRingOptions): LameRing {
  const parameters: LameParameters = {
    inner: o.inner ?? 1,
    outer: o.outer ?? 2,
    youngsModulus: o.youngsModulus ?? 1e6,
    poissonRatio: o.poissonRatio ?? 0.3,
    pressure: o.pressure ?? 100,
  };
  const { inner: a, outer: b, pressure: p } = parameters;
  const { dp } = o;
  const rho0 = o.rho0 ?? 1000;
  const rings = Math.round((b - a) / dp);
  if (rings < 2 || Math.abs(rings * dp - (b - a)) > 1e-9 * b)
    throw new RangeError('the wall thickness b − a must be a whole number (≥ 2) of particle spacings');
  const counts: number[] = [];
  const ringRadius: number[] = [];
  for (let k = 0; k < rings; k++) {
    const r = a + (k + 0.5) * dp;
    ringRadius.push(r);
    counts.push(Math.round((2 * Math.PI * r) / dp));
  }
  const total = counts.reduce((s, n) => s + n, 0);
  const particles = new ParticleArrays(2, total);
  const ring = new Int32Array(total);
  for (let k = 0; k < rings; k++) {
    const r = ringRadius[k]!;
    const n = counts[k]!;
    // Alternate rings are rotated by half a particle, so neighbouring circles interleave.
    const phase = k % 2 === 0 ? 0 : Math.PI / n;
    for (let q = 0; q < n; q++) {
      const theta = phase + (2 * Math.PI * q) / n;
      const i = particles.add(r * Math.cos(theta), r * Math.sin(theta), 0, (2 * Math.PI * r * dp) / n, rho0);
      ring[i] = k;
      if (k === 0) {
        const force = (p * a * 2 * Math.PI) / n;
        const accel = force / particles.mass[i]!;
        particles.apx[i] = accel * Math.cos(theta);
        particles.apy[i] = accel * Math.sin(theta);
      }
    }
  }
  const material = {
    model: o.model ?? 'linear_elastic',
    rho0,
    youngsModulus: parameters.youngsModulus,
    poissonRatio: parameters.poissonRatio,
  } as const;
  // c₀ = √(K/ρ) as the material computes it; the breathing mode's angular frequency is of order c₀/b.
  const K = parameters.youngsModulus / (3 * (1 - 2 * parameters.poissonRatio));
  const eta = Math.sqrt(K / rho0) / b;
  const solid = new ElasticSolid(particles, {
    dim: 2,
    dp,
    material,
    damping: eta,
    ...(o.gradientOrder ? { gradientOrder: o.gradientOrder } : {}),
  });
  return { solid, parameters, ring, ringRadius, settleTime: 25 / eta };
}

/** Per ring: mean radial displacement (m), radial and hoop Cauchy stress (Pa), and Lamé's values at its radius. */
export interface LameRingProfile {
  radius: number[];
  ur: number[];
  radialStress: number[];
  hoopStress: number[];
  exact: { ur: number[]; radialStress: number[]; hoopStress: number[] };
}

/** Ring means of the displacement and stress of `ring` in its current state against Lamé's solution. */
export function lameProfile(ring: LameRing): LameRingProfile {
  const { solid, ringRadius } = ring;
  const p = solid.particles;
  const n = ringRadius.length;
  const sums = Array.from({ length: 4 }, () => new Float64Array(n));
  const [sUr, sRad, sHoop, count] = sums as [Float64Array, Float64Array, Float64Array, Float64Array];
  // Rigid translation (zero by symmetry, up to round-off drift) is removed before the radial projection.
  let mx = 0;
  let my = 0;
  for (let i = 0; i < p.count; i++) {
    mx += p.x[i]! - solid.x0[i]!;
    my += p.y[i]! - solid.y0[i]!;
  }
  mx /= p.count;
  my /= p.count;
  const S = new Float64Array(9);
  const F = solid.F;
  for (let i = 0; i < p.count; i++) {
    const k = ring.ring[i]!;
    const x0 = solid.x0[i]!;
    const y0 = solid.y0[i]!;
    const r0 = Math.hypot(x0, y0);
    const [nx, ny] = [x0 / r0, y0 / r0];
    sUr[k] = sUr[k]! + ((p.x[i]! - x0 - mx) * nx + (p.y[i]! - y0 - my) * ny);
    solid.material.stressPK2(F, 9 * i, S, 0);
    // Cauchy σ = F S Fᵀ / J (2D: the in-plane block).
    const o = 9 * i;
    const [f00, f01, f10, f11] = [F[o]!, F[o + 1]!, F[o + 3]!, F[o + 4]!];
    const [s00, s01, s10, s11] = [S[0]!, S[1]!, S[3]!, S[4]!];
    const J = f00 * f11 - f01 * f10;
    const a00 = f00 * s00 + f01 * s10;
    const a01 = f00 * s01 + f01 * s11;
    const a10 = f10 * s00 + f11 * s10;
    const a11 = f10 * s01 + f11 * s11;
    const xx = (a00 * f00 + a01 * f01) / J;
    const xy = (a00 * f10 + a01 * f11) / J;
    const yy = (a10 * f10 + a11 * f11) / J;
    sRad[k] = sRad[k]! + nx * nx * xx + 2 * nx * ny * xy + ny * ny * yy;
    sHoop[k] = sHoop[k]! + ny * ny * xx - 2 * nx * ny * xy + nx * nx * yy;
    count[k] = count[k]! + 1;
  }
  const exact = { ur: [] as number[], radialStress: [] as number[], hoopStress: [] as number[] };
  for (let k = 0; k < n; k++) {
    const e = lameSolution(ringRadius[k]!, ring.parameters);
    exact.ur.push(e.ur);
    exact.radialStress.push(e.radialStress);
    exact.hoopStress.push(e.hoopStress);
  }
  const mean = (s: Float64Array): number[] => Array.from(s, (v, k) => v / count[k]!);
  return { radius: ringRadius.slice(), ur: mean(sUr), radialStress: mean(sRad), hoopStress: mean(sHoop), exact };
}

/** Summary errors of a Lamé run. */
export interface LameErrors {
  /** Inner ring's radial displacement / Lamé's at its radius − 1. */
  innerDisplacement: number;
  /** Outer ring's radial displacement / Lamé's − 1. */
  outerDisplacement: number;
  /** Largest |hoop stress − Lamé| over the rings, / p. */
  hoopStress: number;
  /** Largest |radial stress − Lamé| over the rings, / p. */
  radialStress: number;
  /** Kinetic energy / the strain energy scale p²·π(b² − a²)/E at the end. */
  kinetic: number;
}

/** Errors of `profile` against Lamé (see `LameErrors`). */
export function lameErrors(ring: LameRing, profile: LameRingProfile): LameErrors {
  const { pressure: p, inner: a, outer: b, youngsModulus: E } = ring.parameters;
  const last = profile.ur.length - 1;
  const worst = (sim: number[], ex: number[]): number =>
    sim.reduce((m, v, k) => Math.max(m, Math.abs(v - ex[k]!) / p), 0);
  return {
    innerDisplacement: profile.ur[0]! / profile.exact.ur[0]! - 1,
    outerDisplacement: profile.ur[last]! / profile.exact.ur[last]! - 1,
    hoopStress: worst(profile.hoopStress, profile.exact.hoopStress),
    radialStress: worst(profile.radialStress, profile.exact.radialStress),
    kinetic: ring.solid.kineticEnergy() / ((p * p * Math.PI * (b * b - a * a)) / E),
  };
}

/** Builds the ring, runs it to its settle time and returns the profile and errors. */
export function lameRun(o: LameRingOptions): { ring: LameRing; profile: LameRingProfile; errors: LameErrors } {
  const ring = lameRing(o);
  ring.solid.run(ring.settleTime);
  const profile = lameProfile(ring);
  return { ring, profile, errors: lameErrors(ring, profile) };
}

/**
 * Radial displacement (m) at radius `r` of Lamé's cylinder a < r < b in plane strain under an internal pressure `p_i`
 * and an external pressure `p_o` (Pa; Timoshenko & Goodier §28): σ_r,θ = (p_i a² − p_o b²)/(b² − a²) ∓ (p_i − p_o)
 * a²b² / ((b² − a²) r²), and u = r ε_θ = r (1 + ν)/E [(1 − ν) σ_θ − ν σ_r]. With p_o = 0 it is `lameSolution`'s u_r.
 */
export function lameDisplacement(
  r: number,
  o: Omit<LameParameters, 'pressure'> & { innerPressure: number; outerPressure: number },
): number {
  const { inner: a, outer: b, innerPressure: pi, outerPressure: po, youngsModulus: E, poissonRatio: nu } = o;
  const mean = (pi * a * a - po * b * b) / (b * b - a * a);
  const dev = ((pi - po) * a * a * b * b) / ((b * b - a * a) * r * r);
  const radial = mean - dev;
  const hoop = mean + dev;
  return ((r * (1 + nu)) / E) * ((1 - nu) * hoop - nu * radial);
}
