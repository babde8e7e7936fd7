import type { CellLinkedList } from './cellList';
import type { WendlandC2 } from './kernel';
import { sharedFloat64, sharedInt32, type ParticleArrays } from './particles';

/**
 * Neighbour lists in compressed-row form, with the kernel data of each pair cached for the whole
 * advection step (as SPHinXsys does): pair k of particle i lies in `start[i] … start[i+1]-1`.
 * e = (r_i − r_j)/|r_i − r_j| points from the neighbour j to i; dW = dW/dr ≤ 0.
 */
export class NeighbourList {
  /** Row starts, length capacity + 1. */
  readonly start: Int32Array;
  /** Neighbour index j of each pair. */
  j: Int32Array;
  /** Kernel value W_ij, 1/m² (2D) or 1/m³ (3D). */
  w: Float64Array;
  /** Kernel derivative dW/dr at r_ij, 1/m³ (2D) or 1/m⁴ (3D). */
  dw: Float64Array;
  /** Distance |r_i − r_j|, m. */
  r: Float64Array;
  /** Unit vector components from j to i. */
  ex: Float64Array;
  ey: Float64Array;
  ez: Float64Array;
  /** Number of pairs stored. */
  pairs = 0;

  /** Allocates rows for `rows` particles and room for `pairCapacity` pairs (grown when needed). */
  constructor(rows: number, pairCapacity: number) {
    this.start = sharedInt32(rows + 1);
    this.j = sharedInt32(pairCapacity);
    this.w = sharedFloat64(pairCapacity);
    this.dw = sharedFloat64(pairCapacity);
    this.r = sharedFloat64(pairCapacity);
    this.ex = sharedFloat64(pairCapacity);
    this.ey = sharedFloat64(pairCapacity);
    this.ez = sharedFloat64(pairCapacity);
  }

  /** Pair capacity currently allocated. */
  get capacity(): number {
    return this.j.length;
  }

  /** Doubles the pair storage, keeping the first `pairs` entries (rare; outside the hot loop). */
  grow(): void {
    const n = this.capacity * 2;
    const copyF = (a: Float64Array): Float64Array => {
      const b = sharedFloat64(n);
      b.set(a.subarray(0, this.pairs));
      return b;
    };
    const j = sharedInt32(n);
    j.set(this.j.subarray(0, this.pairs));
    this.j = j;
    this.w = copyF(this.w);
    this.dw = copyF(this.dw);
    this.r = copyF(this.r);
    this.ex = copyF(this.ex);
    this.ey = copyF(this.ey);
    this.ez = copyF(this.ez);
  }
}

/**
 * Fills `out` with, for every particle i of `target`, the particles j of `source` (sorted into
 * `cells`) within the kernel cut-off, caching W, dW/dr, r and e. `self` skips j = i (same body).
 * Periodic axes of the cell domain use the minimum-image distance. `gradientScale` multiplies the
 * cached dW/dr (lattice gradient normalisation, see docs/decisions/sph-lattice-gradient-normalisation.md).
 * Allocation-free unless the pair storage must grow.
 */
export function buildNeighbours(
  target: ParticleArrays,
  source: ParticleArrays,
  cells: CellLinkedList,
  kernel: WendlandC2,
  self: boolean,
  out: NeighbourList,
  gradientScale = 1,
): void {
  if (target.dim === 2 && cells.nz === 1) {
    buildNeighbours2d(target, source, cells, kernel, self, out, gradientScale);
    return;
  }
  const { x, y, z } = target;
  const xs = source.x;
  const ys = source.y;
  const zs = source.z;
  const { head, next, nx, ny, nz } = cells;
  const nxy = nx * ny;
  const dom = cells.domain;
  const px = dom.periodic[0];
  const py = dom.periodic[1];
  const pz = dom.periodic[2];
  const lx = dom.upper[0] - dom.lower[0];
  const ly = dom.upper[1] - dom.lower[1];
  const lz = dom.upper[2] - dom.lower[2];
  const hlx = 0.5 * lx;
  const hly = 0.5 * ly;
  const hlz = 0.5 * lz;
  const cut2 = kernel.cutoff * kernel.cutoff;
  const invH = 1 / kernel.h;
  const alpha = kernel.alpha;
  const dwFactor = -5 * alpha * invH * gradientScale;
  const is3d = nz > 1 || target.dim === 3;
  const start = out.start;
  let k = 0;
  let cap = out.capacity;
  let jArr = out.j;
  let wArr = out.w;
  let dwArr = out.dw;
  let rArr = out.r;
  let exArr = out.ex;
  let eyArr = out.ey;
  let ezArr = out.ez;
  for (let i = 0; i < target.count; i++) {
    start[i] = k;
    const xi = x[i]!;
    const yi = y[i]!;
    const zi = z[i]!;
    const cx = cells.cellX(xi);
    const cy = cells.cellY(yi);
    const cz = cells.cellZ(zi);
    const z0 = is3d ? -1 : 0;
    const z1 = is3d ? 1 : 0;
    for (let dz = z0; dz <= z1; dz++) {
      let kz = cz + dz;
      if (kz < 0 || kz >= nz) {
        if (!pz) continue;
        kz = (kz + nz) % nz;
      }
      for (let dy = -1; dy <= 1; dy++) {
        let ky = cy + dy;
        if (ky < 0 || ky >= ny) {
          if (!py) continue;
          ky = (ky + ny) % ny;
        }
        for (let dx = -1; dx <= 1; dx++) {
          let kx = cx + dx;
          if (kx < 0 || kx >= nx) {
            if (!px) continue;
            kx = (kx + nx) % nx;
          }
          let j = head[kx + nx * ky + nxy * kz]!;
          while (j >= 0) {
            if (self && j === i) {
              j = next[j]!;
              continue;
            }
            let rx = xi - xs[j]!;
            let ry = yi - ys[j]!;
            let rz = zi - zs[j]!;
            if (px) rx = rx > hlx ? rx - lx : rx < -hlx ? rx + lx : rx;
            if (py) ry = ry > hly ? ry - ly : ry < -hly ? ry + ly : ry;
            if (pz) rz = rz > hlz ? rz - lz : rz < -hlz ? rz + lz : rz;
            const r2 = rx * rx + ry * ry + rz * rz;
            if (r2 < cut2 && r2 > 0) {
              if (k >= cap) {
                out.pairs = k;
                out.grow();
                cap = out.capacity;
                jArr = out.j;
                wArr = out.w;
                dwArr = out.dw;
                rArr = out.r;
                exArr = out.ex;
                eyArr = out.ey;
                ezArr = out.ez;
              }
              const r = Math.sqrt(r2);
              const inv = 1 / r;
              // Wendland C2 inline: W = α a⁴ (1 + 2q), dW/dr = −5 α/h · q a³, a = 1 − q/2.
              const q = r * invH;
              const a = 1 - 0.5 * q;
              const a3 = a * a * a;
              jArr[k] = j;
              wArr[k] = alpha * a3 * a * (1 + 2 * q);
              dwArr[k] = dwFactor * q * a3;
              rArr[k] = r;
              exArr[k] = rx * inv;
              eyArr[k] = ry * inv;
              ezArr[k] = rz * inv;
              k++;
            }
            j = next[j]!;
          }
        }
      }
    }
  }
  start[target.count] = k;
  out.pairs = k;
}

/**
 * 2D specialisation of `buildNeighbours` (same results): no z arithmetic and the Wendland C2 kernel
 * evaluated inline. `ez` is left untouched (zero).
 */
function buildNeighbours2d(
  target: ParticleArrays,
  source: ParticleArrays,
  cells: CellLinkedList,
  kernel: WendlandC2,
  self: boolean,
  out: NeighbourList,
  gradientScale: number,
): void {
  const { x, y } = target;
  const xs = source.x;
  const ys = source.y;
  const { head, next, nx, ny } = cells;
  const dom = cells.domain;
  const px = dom.periodic[0];
  const py = dom.periodic[1];
  const lx = dom.upper[0] - dom.lower[0];
  const ly = dom.upper[1] - dom.lower[1];
  const hlx = 0.5 * lx;
  const hly = 0.5 * ly;
  const cut2 = kernel.cutoff * kernel.cutoff;
  const invH = 1 / kernel.h;
  const alpha = kernel.alpha;
  const dwFactor = -5 * alpha * invH * gradientScale;
  const start = out.start;
  let k = 0;
  let cap = out.capacity;
  let jArr = out.j;
  let wArr = out.w;
  let dwArr = out.dw;
  let rArr = out.r;
  let exArr = out.ex;
  let eyArr = out.ey;
  for (let i = 0; i < target.count; i++) {
    start[i] = k;
    const xi = x[i]!;
    const yi = y[i]!;
    const cx = cells.cellX(xi);
    const cy = cells.cellY(yi);
    for (let dy = -1; dy <= 1; dy++) {
      let ky = cy + dy;
      if (ky < 0 || ky >= ny) {
        if (!py) continue;
        ky = (ky + ny) % ny;
      }
      for (let dx = -1; dx <= 1; dx++) {
        let kx = cx + dx;
        if (kx < 0 || kx >= nx) {
          if (!px) continue;
          kx = (kx + nx) % nx;
        }
        let j = head[kx + nx * ky]!;
        while (j >= 0) {
          let rx = xi - xs[j]!;
          let ry = yi - ys[j]!;
          if (px) rx = rx > hlx ? rx - lx : rx < -hlx ? rx + lx : rx;
          if (py) ry = ry > hly ? ry - ly : ry < -hly ? ry + ly : ry;
          const r2 = rx * rx + ry * ry;
          if (r2 < cut2 && r2 > 0 && !(self && j === i)) {
            if (k >= cap) {
              out.pairs = k;
              out.grow();
              cap = out.capacity;
              jArr = out.j;
              wArr = out.w;
              dwArr = out.dw;
              rArr = out.r;
              exArr = out.ex;
              eyArr = out.ey;
            }
            const r = Math.sqrt(r2);
            const inv = 1 / r;
            const q = r * invH;
            const a = 1 - 0.5 * q;
            const a3 = a * a * a;
            jArr[k] = j;
            wArr[k] = alpha * a3 * a * (1 + 2 * q);
            dwArr[k] = dwFactor * q * a3;
            rArr[k] = r;
            exArr[k] = rx * inv;
            eyArr[k] = ry * inv;
            k++;
          }
          j = next[j]!;
        }
      }
    }
  }
  start[target.count] = k;
  out.pairs = k;
}
