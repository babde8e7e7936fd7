import { WendlandC2 } from './kernel';
import { ParticleArrays, type Dimension, type SharedRegion } from './particles';
import type { PassTable, TableSpec } from './pool';

const int32 = (n: number, shared: boolean): Int32Array =>
  shared ? new Int32Array(new SharedArrayBuffer(4 * Math.max(1, n))) : new Int32Array(Math.max(1, n));
const float64 = (n: number, shared: boolean): Float64Array =>
  shared ? new Float64Array(new SharedArrayBuffer(8 * Math.max(1, n))) : new Float64Array(Math.max(1, n));

/**
 * A uniform cell grid over a subset of particles, rebuilt by a counting sort (stable: within a cell the particles
 * stay in the order of the subset, so queries return candidates in an order that depends only on the positions).
 * Cells are at least one kernel cut-off wide; the grid spans the subset's bounding box. With `shared` its arrays
 * live in SharedArrayBuffers, so worker threads can query it (`ContactSearch`); `generation` counts reallocations.
 */
export class ContactGrid {
  private readonly dim: Dimension;
  private readonly cell: number;
  private readonly shared: boolean;
  /** Lower corner (3) and cell counts (3). */
  params: Float64Array;
  cellStart: Int32Array;
  order: Int32Array;
  private cellOf = new Int32Array(1);
  private xs: Float64Array = new Float64Array(0);
  private ys: Float64Array = new Float64Array(0);
  private zs: Float64Array = new Float64Array(0);
  private readonly cut2: number;
  /** Incremented whenever `cellStart` or `order` is reallocated. */
  generation = 0;

  constructor(dim: Dimension, cutoff: number, shared = false) {
    this.dim = dim;
    this.cell = cutoff;
    this.cut2 = cutoff * cutoff;
    this.shared = shared;
    this.params = float64(6, shared);
    this.params.fill(1, 3, 6);
    this.cellStart = int32(2, shared);
    this.order = int32(1, shared);
  }

  /** A grid over another grid's shared arrays (in a worker), querying the positions `x`, `y`, `z`. */
  static view(
    dim: Dimension,
    cutoff: number,
    arrays: { params: Float64Array; cellStart: Int32Array; order: Int32Array },
    x: Float64Array,
    y: Float64Array,
    z: Float64Array,
  ): ContactGrid {
    const g = new ContactGrid(dim, cutoff);
    g.params = arrays.params;
    g.cellStart = arrays.cellStart;
    g.order = arrays.order;
    g.xs = x;
    g.ys = y;
    g.zs = z;
    return g;
  }

  /** The position arrays of the last build (or of the view). */
  xsView(): { x: Float64Array; y: Float64Array; z: Float64Array } {
    return { x: this.xs, y: this.ys, z: this.zs };
  }

  /** Sorts the particles `subset` of the position arrays into cells. */
  build(x: Float64Array, y: Float64Array, z: Float64Array, subset: Int32Array): void {
    this.xs = x;
    this.ys = y;
    this.zs = z;
    const axes = [x, y, z];
    const lower = [Infinity, Infinity, Infinity];
    const upper = [-Infinity, -Infinity, -Infinity];
    for (let a = 0; a < this.dim; a++) {
      const v = axes[a]!;
      for (const i of subset) {
        if (v[i]! < lower[a]!) lower[a] = v[i]!;
        if (v[i]! > upper[a]!) upper[a] = v[i]!;
      }
    }
    const prm = this.params;
    for (let a = 0; a < 3; a++) {
      if (a >= this.dim || subset.length === 0) {
        prm[a] = 0;
        prm[3 + a] = 1;
      } else {
        prm[a] = lower[a]!;
        prm[3 + a] = Math.max(1, Math.min(4096, Math.floor((upper[a]! - lower[a]!) / this.cell) + 1));
      }
    }
    const cells = prm[3]! * prm[4]! * prm[5]!;
    if (this.cellStart.length < cells + 1) {
      this.cellStart = int32(cells + 1, this.shared);
      this.generation++;
    }
    if (this.order.length < subset.length) {
      this.order = int32(subset.length, this.shared);
      this.cellOf = new Int32Array(subset.length);
      this.generation++;
    }
    const start = this.cellStart;
    start.fill(0, 0, cells + 1);
    for (let k = 0; k < subset.length; k++) {
      const i = subset[k]!;
      const c = this.cellIndex(x[i]!, y[i]!, z[i]!);
      this.cellOf[k] = c;
      start[c + 1]!++;
    }
    for (let c = 0; c < cells; c++) start[c + 1] = start[c + 1]! + start[c]!;
    const fill = start.slice(0, cells);
    for (let k = 0; k < subset.length; k++) this.order[fill[this.cellOf[k]!]!++] = subset[k]!;
  }

  private axisCell(v: number, a: number): number {
    const n = this.params[3 + a]!;
    const c = Math.floor((v - this.params[a]!) / this.cell);
    return c < 0 ? 0 : c >= n ? n - 1 : c;
  }

  private cellIndex(x: number, y: number, z: number): number {
    const prm = this.params;
    return this.axisCell(x, 0) + prm[3]! * (this.axisCell(y, 1) + prm[4]! * this.axisCell(z, 2));
  }

  /**
   * Writes into `out` the particles within the cut-off of (x, y, z) (returns their number; at most `out.length`).
   * A point more than one cell outside the grid has none.
   */
  query(x: number, y: number, z: number, out: Int32Array): number {
    const prm = this.params;
    const p = [x, y, z];
    const lo = [0, 0, 0];
    const hi = [0, 0, 0];
    for (let a = 0; a < 3; a++) {
      if (a >= this.dim) continue;
      const n = prm[3 + a]!;
      const c = Math.floor((p[a]! - prm[a]!) / this.cell);
      if (c < -1 || c > n) return 0;
      lo[a] = Math.max(0, c - 1);
      hi[a] = Math.min(n - 1, c + 1);
    }
    let m = 0;
    const { xs, ys, zs, cut2, order, cellStart } = this;
    const n0 = prm[3]!;
    const n1 = prm[4]!;
    for (let cz = lo[2]!; cz <= hi[2]!; cz++) {
      for (let cy = lo[1]!; cy <= hi[1]!; cy++) {
        for (let cx = lo[0]!; cx <= hi[0]!; cx++) {
          const c = cx + n0 * (cy + n1 * cz);
          for (let k = cellStart[c]!; k < cellStart[c + 1]!; k++) {
            const j = order[k]!;
            const d2 = (xs[j]! - x) ** 2 + (ys[j]! - y) ** 2 + (zs[j]! - z) ** 2;
            if (d2 < cut2 && m < out.length) out[m++] = j;
          }
        }
      }
    }
    return m;
  }
}

/** What a worker needs to build a contact pair's search (the `data` of its `TableSpec`). */
export interface ContactSearchData {
  dim: Dimension;
  h: number;
  offsetW: number;
  a: { capacity: number; buffers: Record<string, SharedRegion> };
  b: { capacity: number; buffers: Record<string, SharedRegion> };
  aSurface: SharedArrayBuffer;
  grid: { params: SharedArrayBuffer; cellStart: SharedArrayBuffer; order: SharedArrayBuffer };
  /** Pair slots: thread t writes into `[capacity·t/threads, capacity·(t+1)/threads)`. */
  capacity: number;
  rowCount: SharedArrayBuffer;
  pj: SharedArrayBuffer;
  pw: SharedArrayBuffer;
  pdw: SharedArrayBuffer;
  pe: SharedArrayBuffer;
}

/**
 * The pair search of a contact (`ContactPair`) as a pass table: each thread takes a contiguous range of body a's
 * surface rows and writes their pairs (partner, W − offset, dW/dr, e_ij) into its own region of the pair slots, and
 * each row's count into `rowCount` (−1 in every row of a thread whose region overflowed). A pair's values depend only
 * on the positions, and the calling thread reads the rows back in a's surface order, so the pairs are those of the
 * serial search, bit for bit, for any thread count.
 */
export class ContactSearch implements PassTable {
  private readonly a: ParticleArrays;
  private readonly kernel: WendlandC2;
  private readonly offsetW: number;
  private readonly surface: Int32Array;
  private readonly grid: ContactGrid;
  private readonly capacity: number;
  private readonly rowCount: Int32Array;
  private readonly pj: Int32Array;
  private readonly pw: Float64Array;
  private readonly pdw: Float64Array;
  private readonly pe: Float64Array;
  private readonly found = new Int32Array(4096);

  constructor(d: ContactSearchData) {
    this.a = new ParticleArrays(d.dim, d.a.capacity, d.a.buffers);
    const b = new ParticleArrays(d.dim, d.b.capacity, d.b.buffers);
    this.kernel = new WendlandC2(d.h, d.dim);
    this.offsetW = d.offsetW;
    this.surface = new Int32Array(d.aSurface);
    const arrays = {
      params: new Float64Array(d.grid.params),
      cellStart: new Int32Array(d.grid.cellStart),
      order: new Int32Array(d.grid.order),
    };
    this.grid = ContactGrid.view(d.dim, this.kernel.cutoff, arrays, b.x, b.y, b.z);
    this.capacity = d.capacity;
    this.rowCount = new Int32Array(d.rowCount);
    this.pj = new Int32Array(d.pj);
    this.pw = new Float64Array(d.pw);
    this.pdw = new Float64Array(d.pdw);
    this.pe = new Float64Array(d.pe);
  }

  /** The rows of thread `thread` of `threads`: `[first, end)` in a's surface list. */
  static rows(rows: number, thread: number, threads: number): [number, number] {
    return [Math.floor((rows * thread) / threads), Math.floor((rows * (thread + 1)) / threads)];
  }

  /** The pair slots of thread `thread`: `[first, end)`. */
  static region(capacity: number, thread: number, threads: number): [number, number] {
    return [Math.floor((capacity * thread) / threads), Math.floor((capacity * (thread + 1)) / threads)];
  }

  runThread(_pass: number, thread: number, threads: number): number {
    const { a, kernel, grid, found, pj, pw, pdw, pe, rowCount } = this;
    const [r0, r1] = ContactSearch.rows(this.surface.length, thread, threads);
    const [s0, s1] = ContactSearch.region(this.capacity, thread, threads);
    const bx = grid.xsView();
    let n = s0;
    for (let r = r0; r < r1; r++) {
      const i = this.surface[r]!;
      const m = grid.query(a.x[i]!, a.y[i]!, a.z[i]!, found);
      if (n + m > s1) {
        rowCount.fill(-1, r0, r1);
        return 0;
      }
      let kept = 0;
      for (let c = 0; c < m; c++) {
        const j = found[c]!;
        const rx = a.x[i]! - bx.x[j]!;
        const ry = a.y[i]! - bx.y[j]!;
        const rz = a.z[i]! - bx.z[j]!;
        const rr = Math.sqrt(rx * rx + ry * ry + rz * rz);
        if (rr <= 1e-12 * kernel.h) continue;
        pj[n] = j;
        pw[n] = Math.max(0, kernel.w(rr) - this.offsetW);
        pdw[n] = kernel.dw(rr);
        pe[3 * n] = rx / rr;
        pe[3 * n + 1] = ry / rr;
        pe[3 * n + 2] = rz / rr;
        n++;
        kept++;
      }
      rowCount[r] = kept;
    }
    return 0;
  }
}

/** Worker-side factory of `ContactSearch` (named in `contactSearchSpec`). */
export function contactSearchTable(data: unknown): ContactSearch {
  return new ContactSearch(data as ContactSearchData);
}

/** The spec from which the pool's workers build a contact pair's search. */
export function contactSearchSpec(data: ContactSearchData): TableSpec {
  return { module: new URL('./contactSearch.ts', import.meta.url).href, factory: 'contactSearchTable', data };
}
