/**
 * Grid convergence index (GCI) of a three-resolution study, by the procedure of Celik, Ghia, Roache, Freitas, Coleman &
 * Raad, "Procedure for estimation and reporting of uncertainty due to discretization in CFD applications", J. Fluids
 * Eng. 130 (2008) 078001 (the ASME JFE editorial policy; Roache's GCI with the factor of safety 1.25 for three grids,
 * the same one ASME V&V 20-2009 adopts).
 *
 * Notation as in Celik et al.: resolution 1 is the finest, h₁ < h₂ < h₃ (for SPH, h is the particle spacing dp),
 * r₂₁ = h₂/h₁, r₃₂ = h₃/h₂, ε₂₁ = φ₂ − φ₁, ε₃₂ = φ₃ − φ₂, s = sign(ε₃₂/ε₂₁). The apparent (observed) order p solves
 *   p = |ln|ε₃₂/ε₂₁| + q(p)| / ln r₂₁,  q(p) = ln((r₂₁ᵖ − s)/(r₃₂ᵖ − s))   (their eqs. 3a–3c, by fixed-point iteration),
 * the extrapolated value is φ_ext = (r₂₁ᵖ φ₁ − φ₂)/(r₂₁ᵖ − 1) (eq. 4a), the approximate relative error
 * e_a = |(φ₁ − φ₂)/φ₁| and the extrapolated relative error e_ext = |(φ_ext − φ₁)/φ_ext| (eq. 5a–b), and the fine-grid
 * convergence index GCI₂₁ = 1.25 e_a/(r₂₁ᵖ − 1) (eq. 5c). GCI₃₂ is the same for the pair (2, 3); the solutions are in
 * the asymptotic range when GCI₃₂ ≈ r₂₁ᵖ GCI₂₁ (Roache, "Verification and Validation in Computational Science and
 * Engineering", Hermosa 1998, §5.9), reported here as the ratio GCI₃₂ / (r₂₁ᵖ GCI₂₁).
 */

/** Kind of convergence from the sign of ε₃₂/ε₂₁ (Celik et al. 2008, after eq. 3c). */
export type ConvergenceKind = 'monotonic' | 'oscillatory' | 'converged';

/** Result of a three-resolution study. */
export interface GciResult {
  /** Refinement ratios h₂/h₁ and h₃/h₂. */
  r21: number;
  r32: number;
  /** Apparent (observed) order of convergence p. */
  order: number;
  /** Richardson-extrapolated value φ_ext²¹. */
  extrapolated: number;
  /** Approximate relative error |(φ₁ − φ₂)/φ₁|. */
  relativeError21: number;
  /** Extrapolated relative error |(φ_ext − φ₁)/φ_ext|. */
  extrapolatedError21: number;
  /** Fine-grid convergence index GCI₂₁ (a fraction: 0.022 = 2.2 %). */
  gci21: number;
  /** Coarse-pair convergence index GCI₃₂. */
  gci32: number;
  /** GCI₃₂ / (r₂₁ᵖ GCI₂₁): close to 1 in the asymptotic range. */
  asymptoticRatio: number;
  /** Monotonic or oscillatory convergence (s = +1 or −1), or 'converged' when φ₂ = φ₁ or φ₃ = φ₂ exactly. */
  kind: ConvergenceKind;
  /** Fixed-point iterations used for p. */
  iterations: number;
}

/** Options of `gridConvergence`. */
export interface GciOptions {
  /** Factor of safety (default 1.25, Roache's value for three or more grids; 3 for two grids). */
  safetyFactor?: number;
  /** Starting guess of p (default 2). */
  initialOrder?: number;
}

/**
 * Grid convergence study of `phi` = [φ₁, φ₂, φ₃] computed at spacings `h` = [h₁, h₂, h₃] (finest first). Throws a
 * RangeError when the spacings are not strictly increasing, a refinement ratio is below 1.1 (Celik et al. ask for
 * r > 1.3; 1.1 is where the differences are too small to carry an order), or the iteration for p does not settle.
 */
export function gridConvergence(
  h: readonly [number, number, number],
  phi: readonly [number, number, number],
  options: GciOptions = {},
): GciResult {
  const fs = options.safetyFactor ?? 1.25;
  const [h1, h2, h3] = h;
  const [f1, f2, f3] = phi;
  if (!(h1 > 0 && h2 > h1 && h3 > h2))
    throw new RangeError('the spacings must be positive and increasing, finest first');
  if (![f1, f2, f3].every(Number.isFinite)) throw new RangeError('the solutions must be finite numbers');
  const r21 = h2 / h1;
  const r32 = h3 / h2;
  if (r21 < 1.1 || r32 < 1.1) throw new RangeError('each refinement ratio must be at least 1.1');
  const e21 = f2 - f1;
  const e32 = f3 - f2;
  if (e21 === 0 || e32 === 0) {
    // No change between two resolutions: nothing to extrapolate (p undefined); report zero uncertainty.
    return {
      r21,
      r32,
      order: Number.NaN,
      extrapolated: f1,
      relativeError21: Math.abs(e21 / f1),
      extrapolatedError21: 0,
      gci21: 0,
      gci32: 0,
      asymptoticRatio: Number.NaN,
      kind: 'converged',
      iterations: 0,
    };
  }
  const s = Math.sign(e32 / e21);
  const lnRatio = Math.log(Math.abs(e32 / e21));
  let p = options.initialOrder ?? 2;
  let iterations = 0;
  for (;;) {
    const q = Math.log((r21 ** p - s) / (r32 ** p - s));
    const next = Math.abs(lnRatio + q) / Math.log(r21);
    iterations++;
    if (!Number.isFinite(next)) throw new RangeError('the apparent order is not defined for these solutions');
    if (Math.abs(next - p) < 1e-12 * Math.max(1, p)) {
      p = next;
      break;
    }
    p = next;
    if (iterations > 500) throw new RangeError('the apparent order did not converge');
  }
  const r21p = r21 ** p;
  const extrapolated = (r21p * f1 - f2) / (r21p - 1);
  const relativeError21 = Math.abs(e21 / f1);
  const relativeError32 = Math.abs(e32 / f2);
  const gci21 = (fs * relativeError21) / (r21p - 1);
  const gci32 = (fs * relativeError32) / (r32 ** p - 1);
  return {
    r21,
    r32,
    order: p,
    extrapolated,
    relativeError21,
    extrapolatedError21: Math.abs((extrapolated - f1) / extrapolated),
    gci21,
    gci32,
    asymptoticRatio: gci32 / (r21p * gci21),
    kind: s > 0 ? 'monotonic' : 'oscillatory',
    iterations,
  };
}

/** One line of a convergence table: value at each spacing, observed order, GCI₂₁ and the asymptotic ratio. */
export function formatGci(label: string, h: readonly number[], phi: readonly number[], g: GciResult): string {
  const values = phi.map((v, k) => `${v.toPrecision(5)} (h ${h[k]!.toPrecision(3)})`).join(', ');
  const pct = (x: number): string => `${(x * 100).toFixed(2)} %`;
  return (
    `${label}: ${values}; ${g.kind}, p = ${g.order.toFixed(2)}, φ_ext = ${g.extrapolated.toPrecision(5)}, ` +
    `e_a21 = ${pct(g.relativeError21)}, e_ext21 = ${pct(g.extrapolatedError21)}, GCI21 = ${pct(g.gci21)}, ` +
    `GCI32 = ${pct(g.gci32)}, GCI32/(r^p GCI21) = ${g.asymptoticRatio.toFixed(3)}`
  );
}

/**
 * The convergence table of a three-resolution study: its rows sorted by spacing (finest first), one `formatGci` line
 * per quantity, or the quantity's label with why no order could be found (e.g. values that do not converge).
 */
export function convergenceLines<Row>(
  rows: readonly Row[],
  spacing: (row: Row) => number,
  quantities: ReadonlyArray<readonly [label: string, value: (row: Row) => number]>,
): string[] {
  if (rows.length !== 3) throw new Error(`A convergence study needs three resolutions, not ${rows.length}.`);
  type Three = [number, number, number];
  const sorted = [...rows].sort((a, b) => spacing(a) - spacing(b));
  const h = sorted.map(spacing) as Three;
  return quantities.map(([label, value]) => {
    const phi = sorted.map(value) as Three;
    try {
      return formatGci(label, h, phi, gridConvergence(h, phi));
    } catch (e) {
      return `${label} ${(e as Error).message}`;
    }
  });
}
