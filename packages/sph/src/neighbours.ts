import type { CellLinkedList } from './cellList';
import type { WendlandC2 } from './kernel';
import {
  SHARED_HEAP,
  sharedRegion,
  viewFloat32,
  viewFloat64,
  viewInt32,
  type ParticleArrays,
  type SharedAllocator,
  type SharedBuffers,
  type SharedRegion,
} from './particles';

/**
 * Storage precision of the cached pair data (W, dW/dr, r, e): 'f64' (default) or 'f32', which halves the largest
 * arrays of a large 3D run (about 100 pairs per particle) at the cost of rounding each cached value to float32
 * (docs/decisions/sph-float32.md). The particle fields and all arithmetic stay float64.
 */
export type PairPrecision = 'f64' | 'f32';

/** A cached pair array in either precision. */
export type PairArray = Float64Array | Float32Array;

/**
 * Neighbour lists in compressed-row form, with the kernel data of each pair cached for the whole
 * advection step (as SPHinXsys does): pair k of particle i lies in `start[i] … start[i+1]-1`.
 * e = (r_i − r_j)/|r_i − r_j| points from the neighbour j to i; dW = dW/dr ≤ 0.
 */
export class NeighbourList {
  /** Row starts, length rows + 1 (after a serial build `start[i + 1] === end[i]`). */
  readonly start: Int32Array;
  /**
   * Row ends: pairs of particle i lie in `start[i] … end[i] − 1`. A threaded build writes each thread's rows
   * into its own region of the pair arrays, so rows of different threads need not be adjacent.
   */
  readonly end: Int32Array;
  /** Neighbour index j of each pair. */
  j: Int32Array;
  /** Kernel value W_ij, 1/m² (2D) or 1/m³ (3D). */
  w: PairArray;
  /** Kernel derivative dW/dr at r_ij, 1/m³ (2D) or 1/m⁴ (3D). */
  dw: PairArray;
  /** Distance |r_i − r_j|, m. */
  r: PairArray;
  /** Unit vector components from j to i. */
  ex: PairArray;
  ey: PairArray;
  ez: PairArray;
  /** Number of pairs stored. */
  pairs = 0;
  /** Where the list's arrays (and their grown copies) are allocated. */
  private readonly alloc: SharedAllocator;
  /** Precision of the cached pair arrays. */
  readonly precision: PairPrecision;

  /**
   * Allocates rows for `rows` particles and room for `pairCapacity` pairs (grown when needed) from `alloc`
   * (default one SharedArrayBuffer per array), or views the shared `buffers` of another list (from `buffers()`,
   * e.g. in a worker thread; pass the same `precision`). The cached pair data are stored in `precision`.
   */
  constructor(
    rows: number,
    pairCapacity: number,
    buffers?: SharedBuffers,
    alloc: SharedAllocator = SHARED_HEAP,
    precision: PairPrecision = 'f64',
  ) {
    this.alloc = alloc;
    this.precision = precision;
    this.start = viewInt32(buffers, 'start', rows + 1, alloc);
    this.end = viewInt32(buffers, 'end', rows + 1, alloc);
    this.j = viewInt32(buffers, 'j', pairCapacity, alloc);
    const view = precision === 'f32' ? viewFloat32 : viewFloat64;
    this.w = view(buffers, 'w', pairCapacity, alloc);
    this.dw = view(buffers, 'dw', pairCapacity, alloc);
    this.r = view(buffers, 'r', pairCapacity, alloc);
    this.ex = view(buffers, 'ex', pairCapacity, alloc);
    this.ey = view(buffers, 'ey', pairCapacity, alloc);
    this.ez = view(buffers, 'ez', pairCapacity, alloc);
  }

  /** The shared storage of the list, by field name (it changes when the list grows). */
  buffers(): Record<string, SharedRegion> {
    const b = sharedRegion;
    return {
      start: b(this.start),
      end: b(this.end),
      j: b(this.j),
      w: b(this.w),
      dw: b(this.dw),
      r: b(this.r),
      ex: b(this.ex),
      ey: b(this.ey),
      ez: b(this.ez),
    };
  }

  /** Re-points the pair arrays at `buffers` (after the owner of the list grew it). */
  attach(buffers: SharedBuffers): void {
    const n = this.j.length;
    const view = this.precision === 'f32' ? viewFloat32 : viewFloat64;
    this.j = viewInt32(buffers, 'j', n);
    this.w = view(buffers, 'w', n);
    this.dw = view(buffers, 'dw', n);
    this.r = view(buffers, 'r', n);
    this.ex = view(buffers, 'ex', n);
    this.ey = view(buffers, 'ey', n);
    this.ez = view(buffers, 'ez', n);
  }

  /** Pair capacity currently allocated. */
  get capacity(): number {
    return this.j.length;
  }

  /** Doubles the pair storage, keeping the first `pairs` entries (rare; outside the hot loop). */
  grow(): void {
    const n = this.capacity * 2;
    const copyF = (a: PairArray): PairArray => {
      const b = this.precision === 'f32' ? this.alloc.f32(n) : this.alloc.f64(n);
      b.set(a.subarray(0, this.pairs));
      return b;
    };
    const j = this.alloc.i32(n);
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
 *
 * By default it builds every row from pair 0 on and grows the storage when needed. A thread of a threaded
 * build passes its rows `[i0, i1)` and its region of the pair arrays `[k0, kLimit)`: then nothing grows, and
 * the function returns −1 if the region is too small. Otherwise it returns the end of the pairs written. The
 * pairs of a row and their order do not depend on the range, so threaded and serial builds give identical rows.
 */
export function buildNeighbours(
  target: ParticleArrays,
  source: ParticleArrays,
  cells: CellLinkedList,
  kernel: WendlandC2,
  self: boolean,
  out: NeighbourList,
  gradientScale = 1,
  i0 = 0,
  i1 = target.count,
  k0 = 0,
  kLimit = -1,
): number {
  if (target.dim === 2 && cells.nz === 1) {
    return buildNeighbours2d(target, source, cells, kernel, self, out, gradientScale, i0, i1, k0, kLimit);
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
  const endArr = out.end;
  let k = k0;
  let cap = kLimit >= 0 ? kLimit : out.capacity;
  let jArr = out.j;
  let wArr = out.w;
  let dwArr = out.dw;
  let rArr = out.r;
  let exArr = out.ex;
  let eyArr = out.ey;
  let ezArr = out.ez;
  for (let i = i0; i < i1; i++) {
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
                if (kLimit >= 0) return -1;
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
    endArr[i] = k;
  }
  if (i0 === 0 && i1 === target.count) {
    start[target.count] = k;
    out.pairs = k;
  }
  return k;
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
  i0: number,
  i1: number,
  k0: number,
  kLimit: number,
): number {
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
  const endArr = out.end;
  let k = k0;
  let cap = kLimit >= 0 ? kLimit : out.capacity;
  let jArr = out.j;
  let wArr = out.w;
  let dwArr = out.dw;
  let rArr = out.r;
  let exArr = out.ex;
  let eyArr = out.ey;
  for (let i = i0; i < i1; i++) {
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
              if (kLimit >= 0) return -1;
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
    endArr[i] = k;
  }
  if (i0 === 0 && i1 === target.count) {
    start[target.count] = k;
    out.pairs = k;
  }
  return k;
}
