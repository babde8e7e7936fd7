import { ContactGrid, ContactSearch, contactSearchSpec, type ContactSearchData } from './contactSearch';
import { WendlandC2, smoothingLength } from './kernel';
import { invert3 } from './mat3';
import type { Dimension, ParticleArrays } from './particles';
import { runAsync, runSync, type RunOptions, type RunStatus } from './run';
import { startSolidThreads, type ElasticSolid } from './solid';
import type { WorkerPool } from './pool';

/**
 * A body that takes part in contact: an elastic solid (the device, or an elastic anatomy) or a rigid wall (the
 * anatomy taken as rigid, or a prescribed tool such as a crimping sheath). Built by `elasticContactBody` or
 * `rigidContactBody`.
 */
export interface ContactBody {
  /** The particles (current positions and velocities; `vol`, `mass`). */
  readonly particles: ParticleArrays;
  /** The solid, or null for a rigid wall (its particles move only as the caller moves them). */
  readonly solid: ElasticSolid | null;
  /** Contact stiffness K = ρ₀c₀² (the bulk modulus), Pa; unused for a rigid wall. */
  readonly stiffness: number;
  /** Contact impedance √(ρ₀K), Pa·s/m; unused for a rigid wall. */
  readonly impedance: number;
  /** Initial particle spacing, m. */
  readonly dp: number;
  /** Indices of the particles that may touch another body: those within a kernel radius of the surface. */
  readonly surface: Int32Array;
  /** Outward unit normals of the reference configuration, 3 per particle (zero inside). */
  readonly normals0: Float64Array;
  /** 1 for the outermost layer of particles (the surface the contact pressure is given on). */
  readonly outer: Uint8Array;
  /**
   * Traction partition (compressed rows over `surface` positions): the contact force of surface particle
   * `surface[r]` is shared among the outermost particles `partS[k]` with weights `partW[k]`, k in
   * `partStart[r] … partStart[r + 1] − 1` (weights of a row sum to 1).
   */
  readonly partStart: Int32Array;
  readonly partS: Int32Array;
  readonly partW: Float64Array;
}

/** Kernel of `dp` in `dim` dimensions (h = 1.3 dp, as the solid's). */
function kernelOf(dp: number, dim: Dimension): WendlandC2 {
  return new WendlandC2(smoothingLength(dp), dim);
}

/** The contact body of an elastic solid (normals and surface layer of its reference configuration). */
export function elasticContactBody(solid: ElasticSolid, dp: number): ContactBody {
  const p = solid.particles;
  const normals0 = solid.surfaceNormals();
  const k = solid.material.bulkModulus;
  return {
    particles: p,
    solid,
    stiffness: k,
    impedance: Math.sqrt(solid.material.rho0 * k),
    dp,
    normals0,
    surface: surfaceIndices(normals0, p.count),
    ...partition(solid.x0, solid.y0, solid.z0, normals0, p, dp),
  };
}

/**
 * The contact body of a rigid wall: `particles` with `vol` and outward unit normals in `nx`, `ny`, `nz` (pointing
 * out of the wall, towards where the other body is; particles with a zero normal never touch). The caller may move
 * the particles between steps (positions and velocities: the velocity enters the friction and the contact damping).
 */
export function rigidContactBody(particles: ParticleArrays, dp: number): ContactBody {
  const n = particles.count;
  const normals0 = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    normals0[3 * i] = particles.nx[i]!;
    normals0[3 * i + 1] = particles.ny[i]!;
    normals0[3 * i + 2] = particles.nz[i]!;
  }
  const x0 = particles.x.slice(0, n);
  const y0 = particles.y.slice(0, n);
  const z0 = particles.z.slice(0, n);
  return {
    particles,
    solid: null,
    stiffness: 0,
    impedance: 0,
    dp,
    normals0,
    surface: surfaceIndices(normals0, n),
    ...partition(x0, y0, z0, normals0, particles, dp),
  };
}

function surfaceIndices(normals: Float64Array, n: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (normals[3 * i] !== 0 || normals[3 * i + 1] !== 0 || normals[3 * i + 2] !== 0) out.push(i);
  }
  return Int32Array.from(out);
}

/**
 * The traction partition of a body (see `ContactBody.partStart`): the outermost particles are the surface particles
 * with no surface neighbour more than dp/2 further out along their normal. They keep their own force; every deeper
 * surface particle shares its force among the outermost particles within a kernel radius by Shepard weights
 * W(r)/Σ W (reference positions), so the shared forces add up to the body's contact force and a force two layers
 * deep lands on the surface above it.
 */
function partition(
  x0: Float64Array,
  y0: Float64Array,
  z0: Float64Array,
  normals: Float64Array,
  p: ParticleArrays,
  dp: number,
): Pick<ContactBody, 'outer' | 'partStart' | 'partS' | 'partW'> {
  const surface = surfaceIndices(normals, p.count);
  const kernel = kernelOf(dp, p.dim);
  const grid = new ContactGrid(p.dim, kernel.cutoff);
  grid.build(x0, y0, z0, surface);
  const outer = new Uint8Array(p.count);
  const found = new Int32Array(1024);
  for (const i of surface) {
    const m = grid.query(x0[i]!, y0[i]!, z0[i]!, found);
    let outermost = true;
    for (let c = 0; c < m && outermost; c++) {
      const j = found[c]!;
      const along =
        (x0[j]! - x0[i]!) * normals[3 * i]! +
        (y0[j]! - y0[i]!) * normals[3 * i + 1]! +
        (z0[j]! - z0[i]!) * normals[3 * i + 2]!;
      if (along > 0.5 * dp) outermost = false;
    }
    if (outermost) outer[i] = 1;
  }
  const partStart = new Int32Array(surface.length + 1);
  const s: number[] = [];
  const w: number[] = [];
  for (let r = 0; r < surface.length; r++) {
    const i = surface[r]!;
    if (outer[i] === 1) {
      // An outermost particle keeps its own force (sharing it too would smooth the pressure by about a spacing).
      s.push(i);
      w.push(1);
      partStart[r + 1] = s.length;
      continue;
    }
    const m = grid.query(x0[i]!, y0[i]!, z0[i]!, found);
    let total = 0;
    const first = s.length;
    for (let c = 0; c < m; c++) {
      const j = found[c]!;
      if (outer[j] === 0) continue;
      const wij = kernel.w(Math.hypot(x0[j]! - x0[i]!, y0[j]! - y0[i]!, z0[j]! - z0[i]!));
      if (wij <= 0) continue;
      s.push(j);
      w.push(wij);
      total += wij;
    }
    for (let k = first; k < s.length; k++) w[k] = w[k]! / total;
    partStart[r + 1] = s.length;
  }
  return { outer, partStart, partS: Int32Array.from(s), partW: Float64Array.from(w) };
}

/** Settings of one contact between two bodies. */
export interface ContactPairOptions {
  /** Coulomb friction coefficient μ ≥ 0 (default 0: frictionless). */
  friction?: number;
  /**
   * Contact density with the offset W(dp) subtracted from each kernel value (max(W_ij − W(dp), 0), as SPHinXsys's
   * self-contact and shell contact): bodies whose particles are dp apart, i.e. touching, feel no force (default
   * true). Without it (SPHinXsys's solid–solid contact) the force starts at the 2h cut-off.
   */
  offset?: boolean;
  /** Factor of the contact damping ½Z u_n (default 1; 0 = off), see `ContactPair`. */
  damping?: number;
  /**
   * Contact stiffness as a multiple of the bulk modulus (default 1, SPHinXsys's ρ₀c₀²). The bodies overlap by a
   * fraction of dp that grows with the contact pressure over this stiffness; a larger factor narrows that layer and
   * needs a smaller time step (the solids' acoustic CFL divided by about its square root).
   */
  stiffness?: number;
  /**
   * Tangential (stick) stiffness of the friction as a multiple of K̄ dp^(d−2) (default 0.5, about G/K for ν = 0.3:
   * the shear stiffness of one particle), see `ContactPair`.
   */
  tangentialStiffness?: number;
  /** Damping of the friction's stick spring as a fraction of the particle's critical damping (default 0.2). */
  tangentialDamping?: number;
}

/**
 * Contact between body `a` and body `b` after SPHinXsys (`RepulsionFactorSummation`, `RepulsionForce`; Wang, Zhang
 * & Hu et al.): each surface particle of one body gets a contact density from the other body's particles within the
 * kernel cut-off, σ_i = Σ_j max(W_ij − W(dp), 0) V_j (the offset: touching particles, dp apart, feel nothing; for
 * bodies of two spacings the kernel and the offset are those of their mean), which acts as a pressure p = Kσ (K the
 * body's bulk modulus) pushing the bodies
 * apart: the pair force on i is f_ij = −2 V_i V_j p_ij dW_ij e_ij (e_ij from j to i), with p_ij = K_a σ_i against a
 * rigid wall and p_ij = K̄ ½(σ_i + σ_j) between two elastic bodies (K̄ the harmonic mean). b's particle gets −f_ij.
 * A damping pressure ½Z u_n is added (Z = √(ρ₀K) times √(stiffness factor), harmonic mean for two solids; u_n the
 * approach speed along i's contact normal n_i = Σ_j −dW_ij V_j e_ij / |…|), and p_ij is never negative (no
 * adhesion). SPHinXsys's self-contact has such a term along e_ij; along e_ij it brakes a particle sliding over b's
 * particles far beyond friction, so here it acts along the contact normal. Without it the contact layer rings.
 *
 * Coulomb friction (coefficient μ) is the spring–dashpot stick with a Coulomb slip limit of Cundall & Strack (1979,
 * Géotechnique 29(1) 47–65; in Luding's form, Granular Matter 10 (2008) 235–246): each surface particle i of a keeps
 * a tangential stick displacement ξ_i relative to its partners (in the tangent plane of i's contact normal n_i,
 * grown by the relative tangential velocity u_t each step, rotated into the new tangent plane, zero when i leaves the
 * contact). The trial force f* = −k_t ξ − c_t u_t (k_t = `tangentialStiffness` K̄ dp^(d−2), c_t = 2√(k_t m) critical
 * for the particle) holds i while |f*| ≤ μN_i (N_i the normal load of i's pairs: stick, the load carried by an
 * elastic offset |ξ| ≤ μN_i/k_t); beyond it i slides with |f| = μN_i and ξ is reset to the limit,
 * ξ = −(f + c_t u_t)/k_t. The force is shared among i's pairs by their normal loads, equal and opposite on b's
 * particles, so momentum is conserved. An explicit stop of the trial velocity (u* times m/dt, bounded by μN) was used first:
 * it chattered against the stiff elastic coupling of the surface to the particles below and did not hold a loaded
 * tube (docs/validation.md).
 *
 * The pairs are found anew every step (surface particles of `a` against surface particles of `b`, cell grid) and
 * the forces are summed on the calling thread in a fixed order: results do not depend on the thread count.
 */
export class ContactPair {
  readonly a: ContactBody;
  readonly b: ContactBody;
  readonly friction: number;
  readonly damping: number;
  /** Contact stiffness factor (`ContactPairOptions.stiffness`). */
  readonly stiffnessFactor: number;
  /**
   * Kernel value subtracted from each pair's W in the contact density (W(dp̄), dp̄ the mean of the two bodies'
   * spacings, or 0 without the offset).
   */
  readonly offsetW: number;
  /** Contact force on each particle of a and of b in the last step, N (N/m in 2D), 3 per particle. */
  readonly forceA: Float64Array;
  readonly forceB: Float64Array;
  /** Contact density of each particle of a and of b in the last step (dimensionless). */
  readonly sigmaA: Float64Array;
  readonly sigmaB: Float64Array;
  private readonly kernel: WendlandC2;
  private readonly grid: ContactGrid;
  private readonly found = new Int32Array(4096);
  /** Normal load of each pair of the current row (scratch; grows with the longest row). */
  private pn = new Float64Array(256);
  /** Pairs of the last step. */
  private pairs = 0;
  private pi = new Int32Array(256);
  private pj = new Int32Array(256);
  private pw = new Float64Array(256);
  private pdw = new Float64Array(256);
  private pe = new Float64Array(3 * 256);
  /** Tangential stick displacement of each particle of a relative to b, m, 3 per particle (friction state). */
  readonly stick: Float64Array;
  /** Tangential stiffness factor (`ContactPairOptions.tangentialStiffness`). */
  readonly tangentialFactor: number;
  /** Stick damping as a fraction of critical (`ContactPairOptions.tangentialDamping`). */
  readonly tangentialDamping: number;
  /** Σ_i N_i of the last step: the normal load the friction's bound μN_i is taken from, N (N/m in 2D). */
  normalLoad = 0;
  /** Scratch: 1 for a's particles with a friction row this step. */
  private readonly sticking: Uint8Array;

  constructor(a: ContactBody, b: ContactBody, options: ContactPairOptions = {}) {
    if (a.solid === null) throw new RangeError('the first body of a contact must be an elastic solid');
    if (a.particles.dim !== b.particles.dim) throw new RangeError('contact bodies must have the same dimension');
    const friction = options.friction ?? 0;
    if (!(friction >= 0)) throw new RangeError('the friction coefficient must be 0 or more');
    this.a = a;
    this.b = b;
    this.friction = friction;
    this.stiffnessFactor = options.stiffness ?? 1;
    this.damping = options.damping ?? 1;
    if (!(this.stiffnessFactor > 0)) throw new RangeError('the contact stiffness factor must be positive');
    // Bodies of two spacings touch when their particles are the mean spacing apart (each surface lies half its own
    // spacing in front of its particles): the pair acts as two bodies of that spacing. With the larger spacing's
    // offset the bodies stood (dp_b − dp_a)/2 apart, an extra interference (docs/decisions/solid-contact-pressure.md).
    const touch = 0.5 * (a.dp + b.dp);
    this.kernel = kernelOf(touch, a.particles.dim);
    this.offsetW = (options.offset ?? true) ? this.kernel.w(touch) : 0;
    this.grid = new ContactGrid(a.particles.dim, this.kernel.cutoff, true);
    this.forceA = new Float64Array(3 * a.particles.count);
    this.forceB = new Float64Array(3 * b.particles.count);
    this.sigmaA = new Float64Array(a.particles.count);
    this.sigmaB = new Float64Array(b.particles.count);
    this.tangentialFactor = options.tangentialStiffness ?? 0.5;
    if (!(this.tangentialFactor > 0)) throw new RangeError('the tangential stiffness factor must be positive');
    this.tangentialDamping = options.tangentialDamping ?? 0.2;
    if (!(this.tangentialDamping >= 0)) throw new RangeError('the tangential damping must be 0 or more');
    this.stick = new Float64Array(3 * a.particles.count);
    this.sticking = new Uint8Array(a.particles.count);
  }

  /** Number of particle pairs in contact in the last step. */
  get pairCount(): number {
    return this.pairs;
  }

  private ensure(n: number): void {
    if (n <= this.pi.length) return;
    const cap = Math.max(n, 2 * this.pi.length);
    const grow = <T extends Int32Array | Float64Array>(old: T, size: number): T => {
      const next = new (old.constructor as new (n: number) => T)(size);
      next.set(old);
      return next;
    };
    this.pi = grow(this.pi, cap);
    this.pj = grow(this.pj, cap);
    this.pw = grow(this.pw, cap);
    this.pdw = grow(this.pdw, cap);
    this.pe = grow(this.pe, 3 * cap);
  }

  /**
   * Whether the pair is computed (default true). A disabled pair has no pairs and zero forces: for bodies the caller
   * knows to be apart (the expansion's sheath after the release), which saves the search.
   */
  enabled = true;

  /** The pool the pair search runs on (`useThreads`), its table, and the shared pair slots. */
  private pool: WorkerPool | null = null;
  private table = -1;
  private attachedGeneration = -1;
  private search: ContactSearchData | null = null;
  /** Pair slots per row of a's surface that the pool's search starts with (doubled when a thread's share overflows). */
  searchSlotsPerRow = 64;
  /**
   * The search runs on the pool only when a has at least this many surface particles (default 20,000): at 2,000 rows
   * (the 3D tube, 8,600 pairs) the extra fork–join per step made 2 threads 1.15–1.36× slower than searching on the
   * calling thread on the loaded 2-core machine (docs/decisions/sph-contact.md). The results are the same either way.
   */
  poolSearchFrom = 20_000;

  /**
   * Runs the pair search on `pool` (null: on the calling thread). The forces are then summed on the calling thread
   * from the pairs in a's surface order, so the results do not depend on the thread count.
   */
  useThreads(pool: WorkerPool | null): void {
    this.pool = pool;
    this.table = -1;
    this.attachedGeneration = -1;
  }

  /** Attaches (again, after the grid or the slots grew) the search table to the pool. */
  private attachSearch(pool: WorkerPool, capacity: number): void {
    const { a, b } = this;
    const sab = (bytes: number): SharedArrayBuffer => new SharedArrayBuffer(Math.max(8, bytes));
    const surface = new Int32Array(sab(4 * a.surface.length));
    surface.set(a.surface);
    const data: ContactSearchData = {
      dim: a.particles.dim,
      h: this.kernel.h,
      offsetW: this.offsetW,
      a: { capacity: a.particles.capacity, buffers: a.particles.buffers() },
      b: { capacity: b.particles.capacity, buffers: b.particles.buffers() },
      aSurface: surface.buffer,
      grid: {
        params: this.grid.params.buffer as SharedArrayBuffer,
        cellStart: this.grid.cellStart.buffer as SharedArrayBuffer,
        order: this.grid.order.buffer as SharedArrayBuffer,
      },
      capacity,
      rowCount: sab(4 * a.surface.length),
      pj: sab(4 * capacity),
      pw: sab(8 * capacity),
      pdw: sab(8 * capacity),
      pe: sab(24 * capacity),
    };
    this.search = data;
    this.table = pool.attach(new ContactSearch(data), contactSearchSpec(data));
    this.attachedGeneration = this.grid.generation;
  }

  /** The pair search on the pool into `pi` … (a's surface order); false when the pool is closed. */
  private searchOnPool(pool: WorkerPool): boolean {
    if (pool.isClosed) return false;
    const rows = this.a.surface.length;
    for (;;) {
      if (this.table < 0 || this.attachedGeneration !== this.grid.generation) {
        this.attachSearch(pool, Math.max(this.search?.capacity ?? 0, this.searchSlotsPerRow * rows));
      }
      pool.runTable(this.table, 0, 0);
      const d = this.search!;
      const count = new Int32Array(d.rowCount);
      let overflow = false;
      for (let r = 0; r < rows && !overflow; r++) overflow = count[r]! < 0;
      if (overflow) {
        this.attachSearch(pool, 2 * d.capacity);
        continue;
      }
      const threads = pool.threads;
      const pj = new Int32Array(d.pj);
      const pw = new Float64Array(d.pw);
      const pdw = new Float64Array(d.pdw);
      const pe = new Float64Array(d.pe);
      let n = 0;
      for (let t = 0; t < threads; t++) {
        const [r0, r1] = ContactSearch.rows(rows, t, threads);
        let k = ContactSearch.region(d.capacity, t, threads)[0];
        for (let r = r0; r < r1; r++) {
          const m = count[r]!;
          this.ensure(n + m);
          const i = this.a.surface[r]!;
          for (let c = 0; c < m; c++, k++, n++) {
            this.pi[n] = i;
            this.pj[n] = pj[k]!;
            this.pw[n] = pw[k]!;
            this.pdw[n] = pdw[k]!;
            this.pe[3 * n] = pe[3 * k]!;
            this.pe[3 * n + 1] = pe[3 * k + 1]!;
            this.pe[3 * n + 2] = pe[3 * k + 2]!;
          }
        }
      }
      this.pairs = n;
      return true;
    }
  }

  /** Finds the pairs and computes the contact forces of a step of `dt` s into `forceA` and `forceB`. */
  compute(dt: number): void {
    if (!this.enabled) {
      if (this.pairs > 0) {
        this.pairs = 0;
        this.stick.fill(0);
        this.forceA.fill(0);
        this.forceB.fill(0);
        this.sigmaA.fill(0);
        this.sigmaB.fill(0);
      }
      return;
    }
    const { a, b, kernel } = this;
    const pa = a.particles;
    const pb = b.particles;
    this.grid.build(pb.x, pb.y, pb.z, b.surface);
    // Pairs: rows in the order of a's surface list, candidates in grid order (on the pool if any: the same pairs).
    let n = 0;
    const onPool = this.pool !== null && a.surface.length >= this.poolSearchFrom && this.searchOnPool(this.pool);
    if (onPool) n = this.pairs;
    else
      for (const i of a.surface) {
        const m = this.grid.query(pa.x[i]!, pa.y[i]!, pa.z[i]!, this.found);
        this.ensure(n + m);
        for (let c = 0; c < m; c++) {
          const j = this.found[c]!;
          const rx = pa.x[i]! - pb.x[j]!;
          const ry = pa.y[i]! - pb.y[j]!;
          const rz = pa.z[i]! - pb.z[j]!;
          const r = Math.sqrt(rx * rx + ry * ry + rz * rz);
          if (r <= 1e-12 * kernel.h) continue;
          this.pi[n] = i;
          this.pj[n] = j;
          this.pw[n] = Math.max(0, kernel.w(r) - this.offsetW);
          this.pdw[n] = kernel.dw(r);
          this.pe[3 * n] = rx / r;
          this.pe[3 * n + 1] = ry / r;
          this.pe[3 * n + 2] = rz / r;
          n++;
        }
      }
    this.pairs = n;
    const { pi, pj, pw, pdw, pe, sigmaA, sigmaB, forceA, forceB } = this;
    if (this.pn.length < this.found.length) this.pn = new Float64Array(this.found.length);
    const pn = this.pn;
    for (const i of a.surface) sigmaA[i] = 0;
    for (const j of b.surface) sigmaB[j] = 0;
    forceA.fill(0);
    forceB.fill(0);
    for (let k = 0; k < n; k++) {
      sigmaA[pi[k]!] = sigmaA[pi[k]!]! + pw[k]! * pb.vol[pj[k]!]!;
      sigmaB[pj[k]!] = sigmaB[pj[k]!]! + pw[k]! * pa.vol[pi[k]!]!;
    }
    const rigid = b.solid === null;
    const factor = this.stiffnessFactor;
    const kBar = factor * (rigid ? a.stiffness : (2 * a.stiffness * b.stiffness) / (a.stiffness + b.stiffness));
    const zBar = rigid ? a.impedance : (2 * a.impedance * b.impedance) / (a.impedance + b.impedance);
    const damping = 0.5 * this.damping * Math.sqrt(factor) * zBar;
    const mu = this.friction;
    const kt =
      this.tangentialFactor *
      (rigid ? a.stiffness : (2 * a.stiffness * b.stiffness) / (a.stiffness + b.stiffness)) *
      a.dp ** (pa.dim - 2);
    const { stick, sticking } = this;
    if (mu > 0) for (const i of a.surface) sticking[i] = 0;
    let normalLoad = 0;
    let rowStart = 0;
    while (rowStart < n) {
      const i = pi[rowStart]!;
      let rowEnd = rowStart;
      while (rowEnd < n && pi[rowEnd] === i) rowEnd++;
      const vi = pa.vol[i]!;
      // The contact normal of i: the direction of its repulsion, Σ_j −dW_ij V_j e_ij (away from b).
      let nx = 0;
      let ny = 0;
      let nz = 0;
      for (let k = rowStart; k < rowEnd; k++) {
        const f = -pdw[k]! * pb.vol[pj[k]!]!;
        nx += f * pe[3 * k]!;
        ny += f * pe[3 * k + 1]!;
        nz += f * pe[3 * k + 2]!;
      }
      const nl = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
      nx /= nl;
      ny /= nl;
      nz /= nl;
      // Repulsion, pair by pair; the normal load N_i and, weighted by it, the partners' velocity and acceleration.
      let load = 0;
      let fix = 0;
      let fiy = 0;
      let fiz = 0;
      let wvx = 0;
      let wvy = 0;
      let wvz = 0;
      let wm = 0;
      for (let k = rowStart; k < rowEnd; k++) {
        const j = pj[k]!;
        const ex = pe[3 * k]!;
        const ey = pe[3 * k + 1]!;
        const ez = pe[3 * k + 2]!;
        // Damping on the approach speed along the contact normal (positive when approaching), not along e_ij:
        // e_ij is oblique for a particle sliding over b's particles, and damping along it brakes sliding.
        const approach = -((pa.vx[i]! - pb.vx[j]!) * nx + (pa.vy[i]! - pb.vy[j]!) * ny + (pa.vz[i]! - pb.vz[j]!) * nz);
        const sigma = rigid ? sigmaA[i]! : 0.5 * (sigmaA[i]! + sigmaB[j]!);
        const p = Math.max(0, kBar * sigma + damping * approach);
        // −2 V_i V_j p dW e: dW ≤ 0, so the force pushes i away from j.
        const fn = -2 * vi * pb.vol[j]! * p * pdw[k]!;
        const fx = fn * ex;
        const fy = fn * ey;
        const fz = fn * ez;
        pn[k - rowStart] = Math.max(0, fx * nx + fy * ny + fz * nz);
        fix += fx;
        fiy += fy;
        fiz += fz;
        forceB[3 * j] = forceB[3 * j]! - fx;
        forceB[3 * j + 1] = forceB[3 * j + 1]! - fy;
        forceB[3 * j + 2] = forceB[3 * j + 2]! - fz;
        const w = pn[k - rowStart]!;
        load += w;
        if (mu > 0 && w > 0) {
          wvx += w * pb.vx[j]!;
          wvy += w * pb.vy[j]!;
          wvz += w * pb.vz[j]!;
          if (!rigid) wm += w * pb.mass[j]!;
        }
      }
      normalLoad += load;
      forceA[3 * i] = forceA[3 * i]! + fix;
      forceA[3 * i + 1] = forceA[3 * i + 1]! + fiy;
      forceA[3 * i + 2] = forceA[3 * i + 2]! + fiz;
      if (mu > 0 && load > 0) {
        // Cundall–Strack friction: the stick displacement ξ (rotated into the current tangent plane, its length
        // kept), grown by the relative tangential velocity; the spring–dashpot force, capped at μN_i.
        sticking[i] = 1;
        const mi = pa.mass[i]!;
        const mj = rigid ? Infinity : wm / load;
        const reduced = rigid ? mi : (mi * mj) / (mi + mj);
        const ux = pa.vx[i]! - wvx / load;
        const uy = pa.vy[i]! - wvy / load;
        const uz = pa.vz[i]! - wvz / load;
        const un = ux * nx + uy * ny + uz * nz;
        const tx = ux - un * nx;
        const ty = uy - un * ny;
        const tz = uz - un * nz;
        let sx = stick[3 * i]!;
        let sy = stick[3 * i + 1]!;
        let sz = stick[3 * i + 2]!;
        const old = Math.sqrt(sx * sx + sy * sy + sz * sz);
        if (old > 0) {
          const sn = sx * nx + sy * ny + sz * nz;
          sx -= sn * nx;
          sy -= sn * ny;
          sz -= sn * nz;
          const len = Math.sqrt(sx * sx + sy * sy + sz * sz);
          const scale = len > 0 ? old / len : 0;
          sx *= scale;
          sy *= scale;
          sz *= scale;
        }
        sx += dt * tx;
        sy += dt * ty;
        sz += dt * tz;
        const ct = 2 * this.tangentialDamping * Math.sqrt(kt * reduced);
        let gx = -kt * sx - ct * tx;
        let gy = -kt * sy - ct * ty;
        let gz = -kt * sz - ct * tz;
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz);
        const limit = mu * load;
        if (g > limit) {
          // Sliding: the force at the Coulomb limit, the spring reset to what that force leaves.
          const f = limit / g;
          gx *= f;
          gy *= f;
          gz *= f;
          sx = -(gx + ct * tx) / kt;
          sy = -(gy + ct * ty) / kt;
          sz = -(gz + ct * tz) / kt;
        }
        stick[3 * i] = sx;
        stick[3 * i + 1] = sy;
        stick[3 * i + 2] = sz;
        if (g > 0) {
          // Shared among the pairs in proportion to their normal load, equal and opposite on b's particles.
          for (let k = rowStart; k < rowEnd; k++) {
            const share = pn[k - rowStart]! / load;
            if (share === 0) continue;
            const j = pj[k]!;
            forceA[3 * i] = forceA[3 * i]! + share * gx;
            forceA[3 * i + 1] = forceA[3 * i + 1]! + share * gy;
            forceA[3 * i + 2] = forceA[3 * i + 2]! + share * gz;
            forceB[3 * j] = forceB[3 * j]! - share * gx;
            forceB[3 * j + 1] = forceB[3 * j + 1]! - share * gy;
            forceB[3 * j + 2] = forceB[3 * j + 2]! - share * gz;
          }
        }
      }
      rowStart = rowEnd;
    }
    this.normalLoad = normalLoad;
    if (mu > 0) {
      for (const i of a.surface) {
        if (sticking[i] === 1) continue;
        stick[3 * i] = 0;
        stick[3 * i + 1] = 0;
        stick[3 * i + 2] = 0;
      }
    }
  }

  /**
   * Contact pressure on body a (`side` 'a') or b ('b'), Pa, per particle (zero except on the outermost layer): the
   * contact forces of the last step shared among the outermost particles (`ContactBody.partStart`), the compressive
   * normal component over the particle's face area V^((d−1)/d). Normals are the current ones (F⁻ᵀn⁰ for a solid).
   */
  pressure(side: 'a' | 'b'): Float64Array {
    const body = side === 'a' ? this.a : this.b;
    const force = side === 'a' ? this.forceA : this.forceB;
    return tractionPressure(body, force);
  }

  /** Total contact force on body a, N (N/m in 2D). */
  totalForce(): [number, number, number] {
    const out: [number, number, number] = [0, 0, 0];
    for (let i = 0; i < this.a.particles.count; i++) {
      for (let c = 0; c < 3; c++) out[c] = out[c]! + this.forceA[3 * i + c]!;
    }
    return out;
  }
}

/** See `ContactPair.pressure`. */
export function tractionPressure(body: ContactBody, force: Float64Array): Float64Array {
  const p = body.particles;
  const dim = p.dim;
  const shared = new Float64Array(3 * p.count);
  const { surface, partStart, partS, partW } = body;
  for (let r = 0; r < surface.length; r++) {
    const i = surface[r]!;
    const fx = force[3 * i]!;
    const fy = force[3 * i + 1]!;
    const fz = force[3 * i + 2]!;
    if (fx === 0 && fy === 0 && fz === 0) continue;
    for (let k = partStart[r]!; k < partStart[r + 1]!; k++) {
      const s = partS[k]!;
      const w = partW[k]!;
      shared[3 * s] = shared[3 * s]! + w * fx;
      shared[3 * s + 1] = shared[3 * s + 1]! + w * fy;
      shared[3 * s + 2] = shared[3 * s + 2]! + w * fz;
    }
  }
  const out = new Float64Array(p.count);
  const n = new Float64Array(3);
  const inv = new Float64Array(9);
  for (let s = 0; s < p.count; s++) {
    const fx = shared[3 * s]!;
    const fy = shared[3 * s + 1]!;
    const fz = shared[3 * s + 2]!;
    if (fx === 0 && fy === 0 && fz === 0) continue;
    currentNormal(body, s, n, inv);
    const area = p.vol[s]! ** ((dim - 1) / dim);
    out[s] = Math.max(0, -(fx * n[0]! + fy * n[1]! + fz * n[2]!)) / area;
  }
  return out;
}

/** The current outward unit normal of particle `i` (n⁰ for a rigid wall, F⁻ᵀn⁰ normalised for a solid). */
function currentNormal(body: ContactBody, i: number, out: Float64Array, inv: Float64Array): void {
  const n0 = body.normals0;
  const [a, b, c] = [n0[3 * i]!, n0[3 * i + 1]!, n0[3 * i + 2]!];
  if (body.solid === null) {
    out[0] = a;
    out[1] = b;
    out[2] = c;
    return;
  }
  invert3(body.solid.F, 9 * i, inv, 0);
  // F⁻ᵀ n⁰: column-wise product with the inverse (row-major).
  const x = inv[0]! * a + inv[3]! * b + inv[6]! * c;
  const y = inv[1]! * a + inv[4]! * b + inv[7]! * c;
  const z = inv[2]! * a + inv[5]! * b + inv[8]! * c;
  const len = Math.hypot(x, y, z) || 1;
  out[0] = x / len;
  out[1] = y / len;
  out[2] = z / len;
}

/** Counters of a contact simulation so far. */
export interface ContactCounters {
  /** Simulated time, s. */
  time: number;
  /** Time steps taken (each steps every solid once). */
  steps: number;
}

/** One contact of a `ContactSimulation`: the indices of its bodies in the simulation's `bodies` and its settings. */
export interface ContactSpec extends ContactPairOptions {
  a: number;
  b: number;
}

/**
 * Elastic solids and rigid walls in contact. Every step: the common time step (the smallest of the solids'
 * acoustic steps), `beforeStep(time, dt)` (to move prescribed walls), the contact forces of every pair, which become
 * the solids' external accelerations (`apx` … = force / mass plus `baseAcceleration`), then each solid's step.
 * The solids' passes may run on a worker pool (`startThreads`); the contact sums run on the calling thread in a
 * fixed order, so the results are bit-identical for any thread count.
 */
export class ContactSimulation {
  readonly bodies: readonly ContactBody[];
  readonly pairs: readonly ContactPair[];
  readonly counters: ContactCounters = { time: 0, steps: 0 };
  /** Called before the contact forces of each step with the time at its start and its length, s. */
  beforeStep: ((time: number, dt: number) => void) | null = null;
  /** Per body: an external acceleration added to the contact's, m/s², 3 per particle (optional). */
  readonly baseAcceleration: (Float64Array | null)[];
  private pool: WorkerPool | null = null;

  constructor(bodies: readonly ContactBody[], contacts: readonly ContactSpec[]) {
    this.bodies = bodies;
    this.pairs = contacts.map((c) => {
      const a = bodies[c.a];
      const b = bodies[c.b];
      if (!a || !b || c.a === c.b) throw new RangeError('a contact names two different bodies of the simulation');
      return new ContactPair(a, b, c);
    });
    this.baseAcceleration = bodies.map(() => null);
  }

  private get solids(): ElasticSolid[] {
    return this.bodies.flatMap((b) => (b.solid ? [b.solid] : []));
  }

  /** Runs every solid's passes on one pool of `threads` threads (≤ 1: on the calling thread). */
  async startThreads(threads: number): Promise<void> {
    await this.stopThreads();
    this.pool = await startSolidThreads(this.solids, threads);
    for (const pair of this.pairs) pair.useThreads(this.pool);
  }

  /** Stops the pool. */
  async stopThreads(): Promise<void> {
    for (const s of this.solids) await s.stopThreads();
    for (const pair of this.pairs) pair.useThreads(null);
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.close();
  }

  /** Contact forces of a step of `dt` into the solids' external accelerations. */
  private applyContact(dt: number): void {
    for (const pair of this.pairs) pair.compute(dt);
    this.bodies.forEach((body, index) => {
      if (!body.solid) return;
      const p = body.particles;
      const base = this.baseAcceleration[index];
      for (let i = 0; i < p.count; i++) {
        let fx = 0;
        let fy = 0;
        let fz = 0;
        for (const pair of this.pairs) {
          const f = pair.a === body ? pair.forceA : pair.b === body ? pair.forceB : null;
          if (!f) continue;
          fx += f[3 * i]!;
          fy += f[3 * i + 1]!;
          fz += f[3 * i + 2]!;
        }
        const inv = 1 / p.mass[i]!;
        p.apx[i] = fx * inv + (base ? base[3 * i]! : 0);
        p.apy[i] = fy * inv + (base ? base[3 * i + 1]! : 0);
        p.apz[i] = fz * inv + (base ? base[3 * i + 2]! : 0);
      }
    });
  }

  /** One step, shortened so as not to pass `endTime` (s). */
  step(endTime: number): void {
    let dt = Infinity;
    for (const s of this.solids) dt = Math.min(dt, s.timeStep());
    dt = Math.min(dt, endTime - this.counters.time);
    this.beforeStep?.(this.counters.time, dt);
    this.applyContact(dt);
    for (const s of this.solids) s.advance(dt);
    this.counters.time += dt;
    this.counters.steps++;
  }

  /** Runs to `endTime` (s), calling `onStep` after every step. */
  run(endTime: number, onStep?: (counters: ContactCounters) => void): void {
    runSync(this, endTime, onStep);
  }

  /** Runs to `endTime` (s) with progress and cancellation (see `run.ts`). */
  runAsync(endTime: number, options: RunOptions<ContactCounters> = {}): Promise<RunStatus> {
    return runAsync(this, endTime, options);
  }
}
