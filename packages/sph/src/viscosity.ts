/**
 * Blood and shear-thinning viscosity (issue 15, item 2). The fluid is Newtonian by default (`FluidOptions.mu`); a
 * `ViscosityModel` makes the viscosity a function of each particle's shear rate γ̇ = √(2 D:D), evaluated once per
 * advection step (`passes.ts`). See docs/decisions/sph-blood.md for the sources of the numbers below.
 */

/** Carreau–Yasuda law μ(γ̇) = μ∞ + (μ₀ − μ∞)·[1 + (λγ̇)^a]^((n − 1)/a) (a = 2: the Carreau law). */
export interface CarreauYasuda {
  model: 'carreau_yasuda';
  /** Zero-shear viscosity μ₀, Pa·s. */
  mu0: number;
  /** Infinite-shear viscosity μ∞, Pa·s. */
  muInf: number;
  /** Time constant λ, s. */
  lambda: number;
  /** Power-law index n (< 1: shear-thinning). */
  n: number;
  /** Yasuda exponent a (2 for the Carreau law). */
  a: number;
}

/** A shear-rate-dependent viscosity. */
export type ViscosityModel = CarreauYasuda;

/** Blood as a Newtonian fluid: density 1060 kg/m³, viscosity 3.5 mPa·s (the usual large-vessel values). */
export const BLOOD_NEWTONIAN = { density: 1060, viscosity: 3.5e-3 } as const;

/**
 * Blood as a shear-thinning Carreau fluid: Cho & Kensey (Biorheology 28, 241–262, 1991), the parameters as tabulated
 * by Johnston et al. (J. Biomech. 37, 709–720, 2004, Table 1): μ₀ = 0.56 P = 0.056 Pa·s, μ∞ = 0.0345 P =
 * 0.00345 Pa·s, λ = 3.313 s, n = 0.3568 (Carreau: a = 2).
 */
export const BLOOD_CARREAU: CarreauYasuda = {
  model: 'carreau_yasuda',
  mu0: 0.056,
  muInf: 0.00345,
  lambda: 3.313,
  n: 0.3568,
  a: 2,
};

/** Checks a model's parameters; throws a RangeError naming the bad one. */
export function checkViscosityModel(m: ViscosityModel): void {
  if (!(m.mu0 > 0)) throw new RangeError('the zero-shear viscosity mu0 must be positive');
  if (!(m.muInf >= 0 && m.muInf <= m.mu0)) throw new RangeError('muInf must lie between 0 and mu0');
  if (!(m.lambda >= 0)) throw new RangeError('the time constant lambda must not be negative');
  if (!(m.n > 0 && m.n <= 1)) throw new RangeError('the power-law index n must lie in (0, 1]');
  if (!(m.a > 0)) throw new RangeError('the Yasuda exponent a must be positive');
}

/** Viscosity of `m` at shear rate `shearRate` (1/s), Pa·s. */
export function apparentViscosity(m: ViscosityModel, shearRate: number): number {
  return m.muInf + (m.mu0 - m.muInf) * Math.pow(1 + Math.pow(m.lambda * shearRate, m.a), (m.n - 1) / m.a);
}

/** The largest viscosity the model gives (at zero shear), Pa·s: it sets the viscous time-step limit. */
export function maxViscosity(m: ViscosityModel): number {
  return m.mu0;
}
