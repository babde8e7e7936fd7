import { rigidContactBody } from './contact';
import { DeviceExpansion, cylinderWall } from './expansion';
import { hertzLineContact } from './hertz';
import { det3 } from './mat3';
import { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';

/**
 * A solid torus about the z axis through the origin (major radius `major`, tube radius `tube`), built of particles
 * body-fitted to its surface: the tube's cross-section is filled with concentric rings of about dp spacing (as
 * `ringParticles` fills an annulus), and each cross-section point is revolved about the axis in steps of about dp.
 * The volumes add up to the torus's 2π²Ra² up to the rounding of the counts.
 */
export function torusParticles(dp: number, major: number, tube: number, rho: number): ParticleArrays {
  if (!(dp > 0 && tube > 0 && major > tube)) throw new RangeError('a torus needs 0 < dp and 0 < tube < major');
  const layers = Math.max(1, Math.round(tube / dp));
  const step = tube / layers;
  const section: [number, number, number][] = [];
  for (let k = 0; k < layers; k++) {
    const rho_k = (k + 0.5) * step;
    const count = Math.max(3, Math.round((2 * Math.PI * rho_k) / dp));
    for (let m = 0; m < count; m++) {
      const phi = (2 * Math.PI * (m + 0.5)) / count;
      section.push([major + rho_k * Math.cos(phi), rho_k * Math.sin(phi), (2 * Math.PI * rho_k * step) / count]);
    }
  }
  const around = section.map(([s]) => Math.max(3, Math.round((2 * Math.PI * s) / dp)));
  const out = new ParticleArrays(
    3,
    around.reduce((n, c) => n + c, 0),
  );
  section.forEach(([s, z, area], k) => {
    const count = around[k]!;
    const vol = (area * 2 * Math.PI * s) / count;
    for (let m = 0; m < count; m++) {
      const th = (2 * Math.PI * (m + 0.5)) / count;
      out.add(s * Math.cos(th), s * Math.sin(th), z, vol, rho);
    }
  });
  return out;
}

/**
 * An elastic ring (centre-line radius R₀, a circular cross-section of radius a, Young's modulus E, Poisson's ratio ν)
 * pressed radially inwards to a centre-line radius R by a rigid tube, quasi-static, linear elastic:
 * - the hoop strain ε = R/R₀ − 1 (uniform over the section to O(a/R));
 * - the hoop force T = E A |ε| / (1 − ν a/R), A = πa²: the cross-section is free axially, but the contact load
 *   compresses it radially, and the radial stress it carries, ∫σ_r dA = −|T| a/R (radial equilibrium of a curved
 *   bar, N_r' = N_θ/R, with the load entering at the outer fibre: −q there, 0 at the inner one), adds ν|σ_r| to the
 *   hoop compression (Hooke: σ_θ = Eε_θ + ν(σ_r + σ_z); σ_z of the contact zone neglected, O(b/a)). For the solid
 *   kind's ring (a/R = 0.16, ν = 0.33) the term is +5 %;
 * - the total normal contact force 2πT (equilibrium of half the ring: exact for any axisymmetric state) and the line
 *   load on the tube q = T/R;
 * - Hertz's plane-strain line contact of the cross-section (a cylinder of radius a) on the tube's wall (a rigid flat
 *   along the axis) under q: half-width b and peak pressure p₀ = E* b / (2a) (Johnson, Contact Mechanics, §4.3;
 *   while b ≪ a).
 * Neglected: O(ε) (geometric and material non-linearity), O((a/R)²) (curved-bar terms).
 */
export function ringInTubeReference(options: {
  /** Centre-line radius of the free ring and of the pressed ring, m. */
  nominalRadius: number;
  radius: number;
  /** Tube radius of the ring (its cross-section's radius), m. */
  tube: number;
  youngsModulus: number;
  poissonRatio: number;
}): {
  strain: number;
  hoopForce: number;
  lineLoad: number;
  contactForce: number;
  halfWidth: number;
  peakPressure: number;
} {
  const { nominalRadius: r0, radius: r, tube: a, youngsModulus: E, poissonRatio: nu } = options;
  const strain = r / r0 - 1;
  const hoopForce = (E * Math.PI * a * a * Math.max(0, -strain)) / (1 - (nu * a) / r);
  const lineLoad = hoopForce / r;
  const hertz = lineLoad > 0 ? hertzLineContact(lineLoad, a, E, nu) : { halfWidth: 0, peakPressure: 0 };
  return { strain, hoopForce, lineLoad, contactForce: 2 * Math.PI * hoopForce, ...hertz };
}

/** Settings of the ring-in-tube case (SI units; defaults a soft ring of the solid kind's proportions). */
export interface RingInTubeOptions {
  /** Particles per tube radius, a/dp (default 3). */
  resolution?: number;
  /** Centre-line radius R₀ of the free ring, m (default 1). */
  major?: number;
  /** Tube radius a, m (default 0.15 R₀: the journey's ring is 0.158). */
  tube?: number;
  /** Inner radius of the rigid tube as a fraction of the ring's free outer radius R₀ + a (default 0.99). */
  fit?: number;
  youngsModulus?: number;
  poissonRatio?: number;
  density?: number;
  /** Expansion time in periods of the ring's breathing mode 2πR₀/√(E/ρ) (default 3); the release lasts half. */
  periods?: number;
}

/** What the run measured (SI units) and the reference at the measured centre-line radius. */
export interface RingInTubeResult {
  dp: number;
  particles: number;
  steps: number;
  /** Mean distance of the ring's particles from the axis (volume-weighted) at the start (free) and at the end, m. */
  nominalRadius: number;
  radius: number;
  /** The tube's inner radius, m. */
  tubeRadius: number;
  /** The expansion's outputs at the end: total normal contact force (N) and peak contact pressure (Pa) on the tube. */
  contactForce: number;
  peakPressure: number;
  /** The same peak read on the device's particles (`ExpansionRecord.peakDevicePressure`), Pa. */
  peakDevicePressure: number;
  /** The tube's contact force summed from the particle forces (radial components), N. */
  radialForce: number;
  /**
   * The ring's hoop force from its own stress, N: ∫σ_θθ dA over a meridian section, Σ_i J_i V_i σ_θθ,i / (2π s_i)
   * (Cauchy stress, current volume and radius), compression positive. Equilibrium of half the ring: the contact
   * force is 2π times it.
   */
  hoopForce: number;
  reference: ReturnType<typeof ringInTubeReference>;
}

/**
 * A torus (the solid kind's ring device, at lab scale) crimped to 0.85, expanded by the engine's sheath into a rigid
 * tube a little narrower than its free outer diameter, released and settled (mass damping at the breathing mode's
 * angular frequency, frictionless contact, neo-Hookean), as `DeviceExpansion` runs the product's solid kind. Measures
 * what the product reports (the expansion's `contactForce` and `peakContactPressure`) and the ring's centre-line
 * radius, for `ringInTubeReference`.
 */
export function ringInTube(options: RingInTubeOptions = {}): RingInTubeResult {
  const n = options.resolution ?? 3;
  const R0 = options.major ?? 1;
  const a = options.tube ?? 0.15 * R0;
  const E = options.youngsModulus ?? 1e6;
  const nu = options.poissonRatio ?? 0.3;
  const rho = options.density ?? 1000;
  const dp = a / n;
  const particles = torusParticles(dp, R0, a, rho);
  const omega = Math.sqrt(E / rho) / R0;
  const device = new ElasticSolid(particles, {
    dim: 3,
    dp,
    material: { model: 'neo_hookean', rho0: rho, youngsModulus: E, poissonRatio: nu },
    damping: omega,
  });
  const meanRadius = (x: Float64Array, y: Float64Array): number => {
    let sum = 0;
    let vol = 0;
    for (let i = 0; i < particles.count; i++) {
      sum += particles.vol[i]! * Math.hypot(x[i]!, y[i]!);
      vol += particles.vol[i]!;
    }
    return sum / vol;
  };
  const nominalRadius = meanRadius(device.x0, device.y0);
  const tubeRadius = (options.fit ?? 0.99) * (R0 + a);
  const axis = { o: [0, 0, 0] as const, a: [0, 0, 1] as const };
  const wall = rigidContactBody(cylinderWall(3, dp, tubeRadius, axis, -a - 4 * dp, a + 4 * dp), dp);
  const period = (2 * Math.PI) / omega;
  const expansion = new DeviceExpansion({
    device,
    dp,
    axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
    crimp: 0.85,
    anatomy: [{ body: wall }],
    expansionTime: (options.periods ?? 3) * period,
  });
  expansion.run(4);
  const last = expansion.records.at(-1)!;
  const pair = expansion.simulation.pairs[1]!;
  const wp = wall.particles;
  let radialForce = 0;
  for (let j = 0; j < wp.count; j++) {
    const r = Math.hypot(wp.x[j]!, wp.y[j]!);
    radialForce += (pair.forceB[3 * j]! * wp.x[j]! + pair.forceB[3 * j + 1]! * wp.y[j]!) / r;
  }
  const radius = meanRadius(particles.x, particles.y);
  // Hoop force: σ = F S Fᵀ / J per particle, its hoop component at the particle's current position.
  const S = new Float64Array(9);
  let hoopForce = 0;
  for (let i = 0; i < particles.count; i++) {
    const s = Math.hypot(particles.x[i]!, particles.y[i]!);
    const t = [-particles.y[i]! / s, particles.x[i]! / s, 0];
    device.material.stressPK2(device.F, 9 * i, S, 0);
    // Fᵀe_θ, then e_θ·F S Fᵀ·e_θ = (Fᵀe_θ)·S·(Fᵀe_θ).
    const g = [0, 1, 2].map((c) => t[0]! * device.F[9 * i + c]! + t[1]! * device.F[9 * i + 3 + c]!);
    let sigma = 0;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) sigma += g[r]! * S[3 * r + c]! * g[c]!;
    const J = det3(device.F, 9 * i);
    hoopForce -= (J * particles.vol[i]! * (sigma / J)) / (2 * Math.PI * s);
  }
  return {
    dp,
    particles: particles.count + wp.count,
    steps: expansion.simulation.counters.steps,
    nominalRadius,
    radius,
    tubeRadius,
    contactForce: last.contactForce,
    peakPressure: last.peakContactPressure,
    peakDevicePressure: last.peakDevicePressure,
    radialForce,
    hoopForce,
    reference: ringInTubeReference({ nominalRadius, radius, tube: a, youngsModulus: E, poissonRatio: nu }),
  };
}
