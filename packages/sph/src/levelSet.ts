import type { Shape } from './geometry';
import type { WendlandC2 } from './kernel';
import type { Dimension } from './particles';

/** Largest number of level-set nodes before the grid is coarsened (Float32: 4 bytes each). */
const MAX_NODES = 1 << 25;

/**
 * The signed distance of a shape sampled on a background grid of spacing `spacing` (dp/2 by default), filled lazily:
 * a node's distance is computed on first use and kept, so only the band about the surface that particles probe is
 * ever evaluated (closed meshes make that evaluation the expensive part). Nodes beyond the grid count as outside.
 *
 * It gives what particle relaxation needs from the shape (after SPHinXsys's `LevelSetShape`): the integral of the
 * kernel gradient over the part of a particle's support that lies outside the shape, which stands in for the missing
 * neighbours beyond the surface.
 */
export class LevelSet {
  readonly dim: Dimension;
  /** Node spacing, m. */
  readonly spacing: number;
  private readonly origin: [number, number, number];
  private readonly n: [number, number, number];
  private readonly phi: Float32Array;
  private readonly distance: (x: number, y: number, z: number, band?: number) => number;
  /** Distances are exact within this band (m) about the surface (the margin): all relaxation looks at. */
  private readonly band: number;

  /** Grid over the bounding box of `shape` widened by `margin` m, at `spacing` m (coarsened if too many nodes). */
  constructor(shape: Shape, dim: Dimension, spacing: number, margin: number) {
    const distance = shape.distance;
    if (!distance) throw new Error('particle relaxation needs a shape with a signed distance');
    this.distance = distance;
    this.band = margin;
    this.dim = dim;
    const extent = [0, 1, 2].map((a) => (a < dim ? shape.upper[a]! - shape.lower[a]! + 2 * margin : 0));
    let h = spacing;
    const nodes = (s: number): [number, number, number] =>
      extent.map((e, a) => (a < dim ? Math.ceil(e / s) + 1 : 1)) as [number, number, number];
    while (nodes(h).reduce((p, c) => p * c, 1) > MAX_NODES) h *= 1.25;
    this.spacing = h;
    this.n = nodes(h);
    this.origin = [0, 1, 2].map((a) => (a < dim ? shape.lower[a]! - margin : 0)) as [number, number, number];
    this.phi = new Float32Array(this.n[0] * this.n[1] * this.n[2]).fill(NaN);
  }

  /** Signed distance (m) at node (i, j, k); nodes beyond the grid are far outside. */
  node(i: number, j: number, k: number): number {
    const [nx, ny, nz] = this.n;
    if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz) return Infinity;
    const c = (k * ny + j) * nx + i;
    let v = this.phi[c]!;
    if (Number.isNaN(v)) {
      const s = this.spacing;
      const [ox, oy, oz] = this.origin;
      v = this.distance(ox + i * s, oy + j * s, this.dim === 3 ? oz + k * s : 0, this.band);
      this.phi[c] = v;
    }
    return v;
  }

  /**
   * Signed distance (m) at the node nearest to the point (within half a spacing per axis of the exact value; beyond the
   * band only its sign and a magnitude ≥ band).
   */
  nearest(x: number, y: number, z: number): number {
    const s = this.spacing;
    const [ox, oy, oz] = this.origin;
    return this.node(Math.round((x - ox) / s), Math.round((y - oy) / s), this.dim === 3 ? Math.round((z - oz) / s) : 0);
  }

  /**
   * ∫ ∇_x W(|x − y|) dy over the outside of the shape (1/m), into `out`: each node stands for its cell, weighted by
   * the fraction of the cell outside the surface, clamp(½ + φ/Δ, 0, 1) (a plane through the cell). For a particle
   * deep inside the integral is zero; near the surface it points outwards.
   */
  kernelGradientOutside(x: number, y: number, z: number, kernel: WendlandC2, out: [number, number, number]): void {
    const s = this.spacing;
    const [ox, oy, oz] = this.origin;
    const rc = kernel.cutoff;
    const cellVolume = this.dim === 3 ? s * s * s : s * s;
    const i0 = Math.ceil((x - rc - ox) / s);
    const i1 = Math.floor((x + rc - ox) / s);
    const j0 = Math.ceil((y - rc - oy) / s);
    const j1 = Math.floor((y + rc - oy) / s);
    const k0 = this.dim === 3 ? Math.ceil((z - rc - oz) / s) : 0;
    const k1 = this.dim === 3 ? Math.floor((z + rc - oz) / s) : 0;
    let gx = 0;
    let gy = 0;
    let gz = 0;
    for (let k = k0; k <= k1; k++) {
      const dz = this.dim === 3 ? z - (oz + k * s) : 0;
      for (let j = j0; j <= j1; j++) {
        const dy = y - (oy + j * s);
        for (let i = i0; i <= i1; i++) {
          const dx = x - (ox + i * s);
          const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
          if (r >= rc || r === 0) continue;
          const phi = this.node(i, j, k);
          if (phi <= -0.5 * s) continue;
          const fraction = phi >= 0.5 * s ? 1 : 0.5 + phi / s;
          const g = (kernel.dw(r) * fraction * cellVolume) / r;
          gx += g * dx;
          gy += g * dy;
          gz += g * dz;
        }
      }
    }
    out[0] = gx;
    out[1] = gy;
    out[2] = gz;
  }

  /**
   * Unit outward normal at the point: the normalised central-difference gradient of the level set about the nearest
   * node (cached values, so a faceted mesh costs no new distance queries).
   */
  normal(x: number, y: number, z: number, out: [number, number, number]): void {
    const s = this.spacing;
    const [ox, oy, oz] = this.origin;
    const i = Math.round((x - ox) / s);
    const j = Math.round((y - oy) / s);
    const k = this.dim === 3 ? Math.round((z - oz) / s) : 0;
    const gx = this.node(i + 1, j, k) - this.node(i - 1, j, k);
    const gy = this.node(i, j + 1, k) - this.node(i, j - 1, k);
    const gz = this.dim === 3 ? this.node(i, j, k + 1) - this.node(i, j, k - 1) : 0;
    const len = Math.hypot(gx, gy, gz) || 1;
    out[0] = gx / len;
    out[1] = gy / len;
    out[2] = gz / len;
  }

  /** Signed distance of the shape at the point, m (exact within the band). */
  signedDistance(x: number, y: number, z: number): number {
    return this.distance(x, y, z, this.band);
  }
}
