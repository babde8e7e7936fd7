import {
  SHARED_HEAP,
  sharedRegion,
  viewInt32,
  type ParticleArrays,
  type SharedAllocator,
  type SharedBuffers,
  type SharedRegion,
} from './particles';

/** Axis-aligned domain of a cell grid; lengths in m. `periodic[a]` wraps axis a over [lower, upper). */
export interface Domain {
  /** Lower corner, m (z ignored in 2D). */
  lower: readonly [number, number, number];
  /** Upper corner, m (z ignored in 2D). */
  upper: readonly [number, number, number];
  /** Periodic axes (x, y, z). */
  periodic: readonly [boolean, boolean, boolean];
}

/**
 * Cell-linked list over a fixed domain with cells at least `cellSize` (m) wide. Rebuilding it reuses
 * its `head` / `next` arrays (no allocation); particles outside the domain are clamped into the
 * border cells (or wrapped on periodic axes).
 */
export class CellLinkedList {
  /** Domain the grid covers. */
  readonly domain: Domain;
  /** Number of cells along x, y, z (z = 1 in 2D). */
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  /** Cell widths along x, y, z, m. */
  readonly sx: number;
  readonly sy: number;
  readonly sz: number;
  /** First particle of each cell, −1 if empty. */
  readonly head: Int32Array;
  /** Next particle in the same cell, −1 at the end. */
  readonly next: Int32Array;
  private readonly invSx: number;
  private readonly invSy: number;
  private readonly invSz: number;

  /**
   * Builds an empty grid over `domain` with cells ≥ `cellSize` m for up to `capacity` particles, or a view of
   * the shared `buffers` of another grid with the same arguments (from `buffers()`, e.g. in a worker thread). New
   * arrays come from `alloc` (default one SharedArrayBuffer each).
   */
  constructor(
    domain: Domain,
    cellSize: number,
    capacity: number,
    dim: 2 | 3,
    buffers?: SharedBuffers,
    alloc: SharedAllocator = SHARED_HEAP,
  ) {
    this.domain = domain;
    const cells = (axis: 0 | 1 | 2): [number, number] => {
      const length = domain.upper[axis] - domain.lower[axis];
      const n = Math.max(1, Math.floor(length / cellSize));
      if (domain.periodic[axis] && n < 3) throw new RangeError('a periodic axis needs at least 3 cells');
      return [n, length / n];
    };
    [this.nx, this.sx] = cells(0);
    [this.ny, this.sy] = cells(1);
    if (dim === 3) [this.nz, this.sz] = cells(2);
    else [this.nz, this.sz] = [1, 1];
    this.invSx = 1 / this.sx;
    this.invSy = 1 / this.sy;
    this.invSz = 1 / this.sz;
    this.head = viewInt32(buffers, 'head', this.nx * this.ny * this.nz, alloc);
    this.next = viewInt32(buffers, 'next', capacity, alloc);
  }

  /** The shared storage of `head` and `next`. */
  buffers(): Record<string, SharedRegion> {
    return { head: sharedRegion(this.head), next: sharedRegion(this.next) };
  }

  /** Cell coordinate along x of position x (m), clamped or wrapped. */
  cellX(x: number): number {
    return this.index(x, 0, this.invSx, this.nx);
  }

  /** Cell coordinate along y of position y (m), clamped or wrapped. */
  cellY(y: number): number {
    return this.index(y, 1, this.invSy, this.ny);
  }

  /** Cell coordinate along z of position z (m), clamped or wrapped. */
  cellZ(z: number): number {
    return this.nz === 1 ? 0 : this.index(z, 2, this.invSz, this.nz);
  }

  private index(v: number, axis: 0 | 1 | 2, inv: number, n: number): number {
    let c = Math.floor((v - this.domain.lower[axis]) * inv);
    if (this.domain.periodic[axis]) {
      c %= n;
      if (c < 0) c += n;
      return c;
    }
    return c < 0 ? 0 : c >= n ? n - 1 : c;
  }

  /** Re-sorts the particles of `particles` into cells (allocation-free). */
  rebuild(particles: ParticleArrays): void {
    const head = this.head;
    const next = this.next;
    head.fill(-1);
    const { x, y, z, count } = particles;
    const nx = this.nx;
    const nxy = this.nx * this.ny;
    for (let i = count - 1; i >= 0; i--) {
      const c = this.cellX(x[i]!) + nx * this.cellY(y[i]!) + nxy * this.cellZ(z[i]!);
      next[i] = head[c]!;
      head[c] = i;
    }
  }
}
