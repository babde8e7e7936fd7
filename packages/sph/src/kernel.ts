import type { Dimension } from './particles';

/**
 * Wendland C2 kernel W(r, h) = α (1 − q/2)⁴ (1 + 2q), q = r/h, support radius 2h.
 * α = 7 / (4π h²) in 2D and 21 / (16π h³) in 3D, so that ∫W dV = 1.
 */
export class WendlandC2 {
  /** Smoothing length h, m. */
  readonly h: number;
  /** Support (cut-off) radius 2h, m. */
  readonly cutoff: number;
  /** Spatial dimension. */
  readonly dim: Dimension;
  /** Normalisation factor α, 1/m² (2D) or 1/m³ (3D). */
  readonly alpha: number;
  private readonly invH: number;

  /** Builds the kernel for smoothing length `h` (m) in `dim` dimensions. */
  constructor(h: number, dim: Dimension) {
    this.h = h;
    this.dim = dim;
    this.cutoff = 2 * h;
    this.invH = 1 / h;
    this.alpha = dim === 2 ? 7 / (4 * Math.PI * h * h) : 21 / (16 * Math.PI * h * h * h);
  }

  /** Kernel value W at distance r (m); 1/m² (2D) or 1/m³ (3D). Zero beyond 2h. */
  w(r: number): number {
    const q = r * this.invH;
    if (q >= 2) return 0;
    const a = 1 - 0.5 * q;
    const a2 = a * a;
    return this.alpha * a2 * a2 * (1 + 2 * q);
  }

  /** Radial derivative dW/dr at distance r (m), ≤ 0; 1/m³ (2D) or 1/m⁴ (3D). Zero beyond 2h. */
  dw(r: number): number {
    const q = r * this.invH;
    if (q >= 2) return 0;
    const a = 1 - 0.5 * q;
    return -5 * this.alpha * this.invH * q * a * a * a;
  }

  /**
   * Reference number density σ₀ = Σ W(|r_k|) over an infinite regular lattice of spacing `dp` (m),
   * self included; 1/m² (2D) or 1/m³ (3D). Used to normalise density summation.
   */
  latticeNumberDensity(dp: number): number {
    const n = Math.ceil(this.cutoff / dp) + 1;
    let sigma = 0;
    const nz = this.dim === 3 ? n : 0;
    for (let k = -nz; k <= nz; k++) {
      for (let j = -n; j <= n; j++) {
        for (let i = -n; i <= n; i++) {
          sigma += this.w(dp * Math.sqrt(i * i + j * j + k * k));
        }
      }
    }
    return sigma;
  }

  /**
   * First moment M = −Σ V_k x_k ∂W/∂x (r_k) over an infinite regular lattice of spacing `dp` (m),
   * dimensionless. It is 1 in the continuous limit; at h = 1.3 dp it is ≈ 0.974, so SPH gradients
   * of linear fields are that much too small unless the kernel gradient is scaled by 1/M.
   */
  latticeGradientMoment(dp: number): number {
    const n = Math.ceil(this.cutoff / dp) + 1;
    const vol = this.dim === 3 ? dp * dp * dp : dp * dp;
    const nz = this.dim === 3 ? n : 0;
    let m = 0;
    for (let k = -nz; k <= nz; k++) {
      for (let j = -n; j <= n; j++) {
        for (let i = -n; i <= n; i++) {
          if (i === 0 && j === 0 && k === 0) continue;
          const r = dp * Math.sqrt(i * i + j * j + k * k);
          const x = dp * i;
          m -= vol * x * this.dw(r) * (x / r);
        }
      }
    }
    return m;
  }
}

/** Smoothing length h (m) for particle spacing `dp` (m), using the SPHinXsys ratio h = 1.3 dp. */
export function smoothingLength(dp: number): number {
  return 1.3 * dp;
}
