import { ContactSimulation, elasticContactBody, rigidContactBody, type ContactPair } from './contact';
import { ParticleArrays } from './particles';
import type { ElasticModel } from './material';
import { ElasticSolid } from './solid';
import type { GradientOrder } from './solidGradient';

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
  /** The solid's gradient order (`SolidOptions.gradientOrder`, default the solid's). */
  gradientOrder?: GradientOrder;
  /** Material model (default 'linear_elastic', St Venant–Kirchhoff, for the cylinder; 'neo_hookean' for the sphere). */
  model?: ElasticModel;
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

/** The options with their defaults (R/dp and the load ρgR/E* default per case), dp and the gravity g. */
function settings(options: HertzCylinderOptions, resolution: number, load: number) {
  const n = options.resolution ?? resolution;
  const R = options.radius ?? 1;
  const E = options.youngsModulus ?? 1e6;
  const nu = options.poissonRatio ?? 0.3;
  const rho = options.density ?? 1000;
  const eStar = E / (1 - nu * nu);
  const g = ((options.load ?? load) * eStar) / (rho * R);
  return {
    n,
    R,
    E,
    nu,
    rho,
    dp: R / n,
    stiffness: options.stiffness ?? 1,
    g,
    gradientOrder: options.gradientOrder,
    model: options.model ?? 'linear_elastic',
  };
}

/**
 * The Hertz contact problem in 2D (plane strain): the lower half of an elastic cylinder of radius R (flat face up)
 * rests under its own weight on a rigid flat (three layers of wall particles below y = 0), starting 1.6 dp above
 * the contact range. A uniform body force loads it; mass damping η brings it to rest (quasi-static). Hertz's theory
 * holds for a contact half-width b ≪ R; the default load gives b ≈ 0.17 R.
 */
export function hertzCylinder(options: HertzCylinderOptions = {}): HertzCylinderCase {
  const { n, R, E, nu, rho, dp, stiffness, g, gradientOrder, model } = settings(options, 20, 0.015);
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
  const rest = restOnFlat(disc, wall, {
    dp,
    R,
    E,
    nu,
    rho,
    g,
    stiffness,
    gradientOrder,
    model,
    damping: options.damping ?? 1,
  });
  return { ...rest, analytic: hertzLineContact(rest.load, R, E, nu) };
}

/**
 * An elastic body (St Venant–Kirchhoff) under gravity g along −y (2D) or −z (3D) with mass damping (η in units of
 * c₀/R) in contact with a rigid flat: the simulation, its contact, the body's weight and the time to settle (40 R/c₀).
 */
function restOnFlat(
  body: ParticleArrays,
  wall: ParticleArrays,
  o: {
    dp: number;
    R: number;
    E: number;
    nu: number;
    rho: number;
    g: number;
    stiffness: number;
    damping: number;
    gradientOrder: GradientOrder | undefined;
    model: ElasticModel;
  },
): Omit<HertzCylinderCase, 'analytic'> {
  const material = { model: o.model, rho0: o.rho, youngsModulus: o.E, poissonRatio: o.nu };
  const c0 = Math.sqrt(o.E / (3 * (1 - 2 * o.nu)) / o.rho);
  const solid = new ElasticSolid(body, {
    dim: body.dim,
    dp: o.dp,
    material,
    gravity: body.dim === 2 ? [0, -o.g, 0] : [0, 0, -o.g],
    damping: o.damping * (c0 / o.R),
    acousticCfl: 0.6 / Math.sqrt(Math.max(1, o.stiffness)),
    ...(o.gradientOrder === undefined ? {} : { gradientOrder: o.gradientOrder }),
  });
  const simulation = new ContactSimulation(
    [elasticContactBody(solid, o.dp), rigidContactBody(wall, o.dp)],
    [{ a: 0, b: 1, stiffness: o.stiffness }],
  );
  let mass = 0;
  for (let i = 0; i < body.count; i++) mass += body.mass[i]!;
  return { simulation, solid, contact: simulation.pairs[0]!, load: mass * o.g, endTime: 40 * (o.R / c0) };
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

/** Hertz's contact of an elastic sphere of radius R on a rigid flat under a normal force F (3D). */
export function hertzPointContact(
  force: number,
  radius: number,
  youngsModulus: number,
  poissonRatio: number,
): { contactRadius: number; peakPressure: number; indentation: number } {
  const eStar = youngsModulus / (1 - poissonRatio * poissonRatio);
  const contactRadius = Math.cbrt((3 * force * radius) / (4 * eStar));
  return {
    contactRadius,
    peakPressure: (3 * force) / (2 * Math.PI * contactRadius * contactRadius),
    indentation: (contactRadius * contactRadius) / radius,
  };
}

/** What the sphere case gives: as `HertzCylinderCase`, the load in N. */
export interface HertzSphereCase {
  simulation: ContactSimulation;
  solid: ElasticSolid;
  contact: ContactPair;
  /** Load, N (the hemisphere's weight). */
  load: number;
  /** Hertz's contact radius (m), peak pressure (Pa) and indentation (m) for that load. */
  analytic: { contactRadius: number; peakPressure: number; indentation: number };
  endTime: number;
}

/**
 * The Hertz contact problem in 3D: the lower half of an elastic sphere of radius R (flat face up) rests under its own
 * weight on a rigid flat (three lattice layers below z = 0, normals up), starting 1.6 dp above it, with mass damping.
 * The hemisphere is built of concentric spherical shells (radii R − (k + ½) dp), each covered evenly by a Fibonacci
 * spiral, so its surface is the sphere (a lattice ball's flat bottom would press like a punch). The default load
 * (ρgR/E* = 0.01) gives a contact radius a ≈ 0.25 R and a peak pressure ≈ 0.16 E*. The material is neo-Hookean by
 * default: at these strains St Venant–Kirchhoff is markedly softer in compression than the linear elasticity of Hertz's
 * theory, and widened the contact by 9 % at every resolution (docs/validation.md).
 */
export function hertzSphere(options: HertzCylinderOptions = {}): HertzSphereCase {
  const { n, R, E, nu, rho, dp, stiffness, g, gradientOrder } = settings(options, 10, 0.01);
  // Neo-Hookean: the contact strains the sphere by 10–16 % here, where St Venant–Kirchhoff softens (docs/validation.md).
  const model = options.model ?? 'neo_hookean';
  const zc = R + 1.6 * dp;
  const golden = Math.PI * (3 - Math.sqrt(5));
  const shells: [number, number][] = [];
  for (let k = 0; k < n; k++) {
    const r = R - (k + 0.5) * dp;
    shells.push([r, Math.max(1, Math.round((2 * Math.PI * r * r) / (dp * dp)))]);
  }
  const ball = new ParticleArrays(
    3,
    shells.reduce((s, [, c]) => s + c, 0),
  );
  for (const [r, count] of shells) {
    const vol = ((2 / 3) * Math.PI * ((r + 0.5 * dp) ** 3 - Math.max(0, r - 0.5 * dp) ** 3)) / count;
    for (let m = 0; m < count; m++) {
      // Equal areas: the height is uniform over the lower hemisphere.
      const cz = -(m + 0.5) / count;
      const s = Math.sqrt(1 - cz * cz);
      const th = m * golden;
      ball.add(r * s * Math.cos(th), r * s * Math.sin(th), zc + r * cz, vol, rho);
    }
  }
  const half = Math.ceil((0.6 * R) / dp);
  const wall = new ParticleArrays(3, 4 * half * half * 3);
  for (let layer = 0; layer < 3; layer++) {
    for (let i = -half; i < half; i++) {
      for (let j = -half; j < half; j++) {
        const k = wall.add((i + 0.5) * dp, (j + 0.5) * dp, -(layer + 0.5) * dp, dp ** 3, rho);
        wall.nz[k] = 1;
      }
    }
  }
  const rest = restOnFlat(ball, wall, {
    dp,
    R,
    E,
    nu,
    rho,
    g,
    stiffness,
    gradientOrder,
    model,
    damping: options.damping ?? 1,
  });
  return { ...rest, analytic: hertzPointContact(rest.load, R, E, nu) };
}

/** The sphere's contact measured on the flat: normal force (N), peak pressure (Pa) and contact radius (m). */
export interface HertzSphereMeasurement {
  /** Normal force on the flat, N. */
  force: number;
  /** Largest contact pressure on the flat (`ContactPair.pressure`, the product's output), Pa. */
  peakPressure: number;
  /**
   * Contact radius from the second moment of the normal contact forces on the sphere's particles, at the particles'
   * positions (where the traction acts): Hertz's p₀√(1 − r²/a²) has ∫p r² dA / ∫p dA = 2a²/5, so a = √(5⟨r²⟩/2), m.
   */
  contactRadius: number;
  /**
   * The same moment of the contact pressure on the flat's particles, m. A pair's force lands on the flat's particles
   * within the kernel's reach of the sphere's particle (2h = 2.6 dp), so this pressure is the contact's blurred over
   * about a spacing, which adds that blur's variance to ⟨r²⟩ (docs/validation.md).
   */
  contactRadiusOnFlat: number;
  /** Hertz's indentation of the measured contact radius, a²/R (m), for the force–indentation comparison. */
  indentation: number;
}

/** a = √(5⟨r²⟩/2) of weights `w` at (x, y), ⟨r²⟩ taken about their centre (see `HertzSphereMeasurement`). */
function hertzRadius(x: ArrayLike<number>, y: ArrayLike<number>, w: ArrayLike<number>, count: number): number {
  let total = 0;
  let fx = 0;
  let fy = 0;
  for (let s = 0; s < count; s++) {
    total += w[s]!;
    fx += w[s]! * x[s]!;
    fy += w[s]! * y[s]!;
  }
  const [cx, cy] = [fx / total, fy / total];
  let second = 0;
  for (let s = 0; s < count; s++) second += w[s]! * ((x[s]! - cx) ** 2 + (y[s]! - cy) ** 2);
  return Math.sqrt((5 * second) / (2 * total));
}

/**
 * Measures the sphere's contact on the flat (`contact`: the sphere a on the flat b, normal +z); `radius` is the
 * sphere's R.
 */
export function measureHertzSphere(contact: ContactPair, radius: number): HertzSphereMeasurement {
  const p = contact.pressure('b');
  const wall = contact.b.particles;
  const onFlat = new Float64Array(wall.count);
  let force = 0;
  let peak = 0;
  for (let s = 0; s < wall.count; s++) {
    onFlat[s] = p[s]! * wall.vol[s]! ** (2 / 3);
    force += onFlat[s]!;
    peak = Math.max(peak, p[s]!);
  }
  const ball = contact.a.particles;
  const normal = new Float64Array(ball.count);
  for (let i = 0; i < ball.count; i++) normal[i] = Math.max(0, contact.forceA[3 * i + 2]!);
  const contactRadius = hertzRadius(ball.x, ball.y, normal, ball.count);
  return {
    force,
    peakPressure: peak,
    contactRadius,
    contactRadiusOnFlat: hertzRadius(wall.x, wall.y, onFlat, wall.count),
    indentation: (contactRadius * contactRadius) / radius,
  };
}
