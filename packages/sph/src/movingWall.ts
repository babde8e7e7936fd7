import type { TriangleMesh } from '@insilico/mesh';
import type { PrescribedWallMotion } from './fluid';
import type { MeshShape, MeshShapeOptions } from './meshShape';
import type { ParticleArrays } from './particles';
import { PeriodicFrames, type FrameInterpolation } from './periodicFrames';

/**
 * A vessel's wall moving with the heart cycle (issue 15, item 3, optional part): the wall particles built from the
 * reference mesh (frame 0) follow the mesh as it moves through the patient's frames (`periodicFrames.ts`). Each wall
 * particle is anchored to its nearest point on the reference surface (a triangle and barycentric coordinates) and
 * keeps its offset from that point, turned with the triangle; its velocity and acceleration are those of the anchor
 * point, the time derivatives of the interpolation, which the fluid's wall boundary condition reads. See
 * docs/decisions/sph-moving-walls.md.
 */

/** The frames a vessel's wall moves through (SI times; mesh coordinates scaled like the reference mesh's). */
export interface WallMotionOptions {
  /**
   * The mesh at the frames after the reference (the reference mesh is frame 0, at time 0), with the reference's
   * triangles in the same order (the same vertex of each triangle corner): e.g. the patient's cine frames.
   */
  frames: readonly TriangleMesh[];
  /** Time of each of `frames`, s: rising, after 0 and before `period`. */
  times: readonly number[];
  /** Period of the motion, s (the heart cycle): the wall is back at the reference mesh at every multiple. */
  period: number;
  /** Interpolation between frames (default 'cubic', see `FrameSequence.interpolation`). */
  interpolation?: FrameInterpolation;
}

/** The timing of a heart cycle: its period and the share of it over which the systolic frames are spread. */
export interface HeartCycleTiming {
  /** Period of the cycle, s (60 / heart rate). */
  period: number;
  /** Time from the first systolic frame (end-diastole) to the last (end-systole), s: the ejection time. */
  ejection: number;
  /** Interpolation between frames (default 'cubic'). */
  interpolation?: FrameInterpolation;
}

/**
 * A whole periodic heart cycle from systolic frames alone (a patient's cine frames from end-diastole, `systole[0]`, to
 * end-systole, the last), see docs/decisions/sph-moving-walls.md: the frames equally spaced over the ejection time,
 * then, for filling, the same frames in reverse order (end-systole back towards end-diastole) equally spaced over the
 * rest of the period. The reference mesh (time 0) is `systole[0]`; the motion lists the others. Throws a RangeError
 * when there are fewer than two frames or the ejection does not fit in the period.
 */
export function heartCycleMotion(
  systole: readonly TriangleMesh[],
  timing: HeartCycleTiming,
): { reference: TriangleMesh; motion: WallMotionOptions } {
  const k = systole.length;
  if (k < 2) throw new RangeError('a heart cycle needs at least two systolic frames (end-diastole, end-systole)');
  const { period, ejection } = timing;
  if (!(period > 0) || !(ejection > 0) || !(ejection < period)) {
    throw new RangeError(
      `the ejection time (${ejection} s) must be positive and shorter than the period (${period} s)`,
    );
  }
  const frames: TriangleMesh[] = [];
  const times: number[] = [];
  const step = ejection / (k - 1);
  for (let i = 1; i < k; i++) {
    frames.push(systole[i]!);
    times.push(i * step);
  }
  const fill = (period - ejection) / (k - 1);
  for (let j = 1; j < k - 1; j++) {
    frames.push(systole[k - 1 - j]!);
    times.push(ejection + j * fill);
  }
  return {
    reference: systole[0]!,
    motion: { frames, times, period, ...(timing.interpolation ? { interpolation: timing.interpolation } : {}) },
  };
}

/** Vertex positions of `mesh` scaled and shifted as `meshShape` does, m. */
function scaled(mesh: TriangleMesh, o: MeshShapeOptions): Float64Array {
  const s = o.scale ?? 1e-3;
  const [ox, oy, oz] = o.offset ?? [0, 0, 0];
  const out = new Float64Array(mesh.positions.length);
  for (let v = 0; v < out.length; v += 3) {
    out[v] = mesh.positions[v]! * s + ox;
    out[v + 1] = mesh.positions[v + 1]! * s + oy;
    out[v + 2] = mesh.positions[v + 2]! * s + oz;
  }
  return out;
}

/**
 * The positions of frame `frame` in the reference's vertex numbering: vertex v takes the position of the frame's
 * corner at the first triangle corner where the reference uses v. Throws a RangeError when the triangle counts differ
 * or two corners of the frame that share a reference vertex lie apart (the frames do not correspond).
 */
function correspondingPositions(
  reference: TriangleMesh,
  frame: TriangleMesh,
  framePositions: Float64Array,
  what: string,
): Float64Array {
  const ri = reference.indices;
  const fi = frame.indices;
  if (fi.length !== ri.length) {
    throw new RangeError(`${what} has ${fi.length / 3} triangles, the reference mesh ${ri.length / 3}`);
  }
  const out = new Float64Array(reference.positions.length);
  const seen = new Uint8Array(reference.positions.length / 3);
  for (let c = 0; c < ri.length; c++) {
    const v = ri[c]!;
    const w = fi[c]!;
    if (!seen[v]) {
      seen[v] = 1;
      for (let a = 0; a < 3; a++) out[3 * v + a] = framePositions[3 * w + a]!;
      continue;
    }
    const gap = Math.hypot(
      out[3 * v]! - framePositions[3 * w]!,
      out[3 * v + 1]! - framePositions[3 * w + 1]!,
      out[3 * v + 2]! - framePositions[3 * w + 2]!,
    );
    if (gap > 0) {
      throw new RangeError(`${what} does not correspond to the reference mesh: a shared vertex is split in it`);
    }
  }
  return out;
}

/**
 * Unit normal of triangle (a, b, c) of `p` (vertex offsets ×3) into `out`; returns twice its area (0 when degenerate,
 * `out` then untouched).
 */
export function triangleNormal(
  p: Float32Array | Float64Array,
  a: number,
  b: number,
  c: number,
  out: Float64Array,
  at: number,
): number {
  const ux = p[b]! - p[a]!;
  const uy = p[b + 1]! - p[a + 1]!;
  const uz = p[b + 2]! - p[a + 2]!;
  const vx = p[c]! - p[a]!;
  const vy = p[c + 1]! - p[a + 1]!;
  const vz = p[c + 2]! - p[a + 2]!;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const len = Math.hypot(nx, ny, nz);
  if (!(len > 0)) return 0;
  out[at] = nx / len;
  out[at + 1] = ny / len;
  out[at + 2] = nz / len;
  return len;
}

/**
 * Moves the first `count` particles of a wall (the vessel's: `vesselFromMesh` puts them first, and the case runner
 * keeps them first) with the frames. Positions, velocities, accelerations and normals are set at each advection step
 * (`WeaklyCompressibleFluid` calls `moveTo` with the simulated time).
 */
export class MovingWall implements PrescribedWallMotion {
  /** Number of wall particles moved (slots 0 … count − 1). */
  readonly count: number;
  readonly frames: PeriodicFrames;
  private readonly tri: Uint32Array;
  /** Anchor triangle of each particle. */
  private readonly anchor: Int32Array;
  /** Barycentric coordinates of each anchor (3 per particle). */
  private readonly weight: Float64Array;
  /** Offset of each particle from its anchor on the reference surface, m (3 per particle). */
  private readonly offset: Float64Array;
  /** Each particle's normal on the reference (3 per particle). */
  private readonly normal0: Float64Array;
  /** Each anchor triangle's unit normal on the reference (3 per particle; 0 when degenerate). */
  private readonly face0: Float64Array;
  /** Each particle's volume on the reference, m³, divided by twice its anchor triangle's area (0 when degenerate). */
  private readonly volumePerArea: Float64Array;
  /** Each particle's volume on the reference, m³. */
  private readonly volume0: Float64Array;
  private readonly pos: Float64Array;
  private readonly vel: Float64Array;
  private readonly acc: Float64Array;
  private readonly face = new Float64Array(3);
  private readonly box: { lower: [number, number, number]; upper: [number, number, number] } = {
    lower: [Infinity, Infinity, Infinity],
    upper: [-Infinity, -Infinity, -Infinity],
  };

  /**
   * Anchors the `wall` particles (built from `mesh`, whose shape is `shape`) to the reference surface and prepares the
   * interpolation through `o.frames` (scaled and shifted by `transform`, as the reference). Throws a RangeError when a
   * frame does not correspond to the reference mesh or the times do not fit the period.
   */
  constructor(
    mesh: TriangleMesh,
    shape: MeshShape,
    wall: ParticleArrays,
    o: WallMotionOptions,
    transform: MeshShapeOptions = {},
  ) {
    if (o.frames.length !== o.times.length) {
      throw new RangeError(`${o.frames.length} frames need ${o.frames.length} times (got ${o.times.length})`);
    }
    const reference = scaled(mesh, transform);
    const positions = [
      reference,
      ...o.frames.map((f, k) => correspondingPositions(mesh, f, scaled(f, transform), `frame ${k + 2}`)),
    ];
    for (const p of positions) {
      for (let v = 0; v < p.length; v += 3) {
        for (let a = 0; a < 3; a++) {
          this.box.lower[a] = Math.min(this.box.lower[a]!, p[v + a]!);
          this.box.upper[a] = Math.max(this.box.upper[a]!, p[v + a]!);
        }
      }
    }
    this.frames = new PeriodicFrames({
      positions,
      times: [0, ...o.times],
      period: o.period,
      ...(o.interpolation ? { interpolation: o.interpolation } : {}),
    });
    this.tri = Uint32Array.from(mesh.indices);
    const n = wall.count;
    this.count = n;
    this.anchor = new Int32Array(n);
    this.weight = new Float64Array(3 * n);
    this.offset = new Float64Array(3 * n);
    this.normal0 = new Float64Array(3 * n);
    this.face0 = new Float64Array(3 * n);
    this.volumePerArea = new Float64Array(n);
    this.volume0 = new Float64Array(n);
    const q: [number, number, number] = [0, 0, 0];
    const t = new Int32Array(1);
    for (let i = 0; i < n; i++) {
      const x = wall.x[i]!;
      const y = wall.y[i]!;
      const z = wall.z[i]!;
      shape.nearest(x, y, z, q, Infinity, t);
      const k = t[0]!;
      this.anchor[i] = k;
      this.barycentric(reference, k, q, 3 * i);
      this.offset[3 * i] = x - q[0];
      this.offset[3 * i + 1] = y - q[1];
      this.offset[3 * i + 2] = z - q[2];
      this.normal0[3 * i] = wall.nx[i]!;
      this.normal0[3 * i + 1] = wall.ny[i]!;
      this.normal0[3 * i + 2] = wall.nz[i]!;
      const tri = [3 * this.tri[3 * k]!, 3 * this.tri[3 * k + 1]!, 3 * this.tri[3 * k + 2]!] as const;
      const area = triangleNormal(reference, tri[0], tri[1], tri[2], this.face0, 3 * i);
      this.volume0[i] = wall.vol[i]!;
      this.volumePerArea[i] = area > 0 ? wall.vol[i]! / area : 0;
    }
    this.pos = new Float64Array(this.frames.size);
    this.vel = new Float64Array(this.frames.size);
    this.acc = new Float64Array(this.frames.size);
  }

  /** Bounding box of the mesh over all frames, m. */
  bounds(): { lower: [number, number, number]; upper: [number, number, number] } {
    return this.box;
  }

  /** Barycentric coordinates of point `q` (on triangle `k` of `p`) into `weight` at `at`. */
  private barycentric(p: Float64Array, k: number, q: readonly number[], at: number): void {
    const a = 3 * this.tri[3 * k]!;
    const b = 3 * this.tri[3 * k + 1]!;
    const c = 3 * this.tri[3 * k + 2]!;
    const e0 = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const e1 = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    const d = [q[0]! - p[a]!, q[1]! - p[a + 1]!, q[2]! - p[a + 2]!];
    const dot = (u: number[], v: number[]): number => u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
    const d00 = dot(e0, e0);
    const d01 = dot(e0, e1);
    const d11 = dot(e1, e1);
    const d20 = dot(d, e0);
    const d21 = dot(d, e1);
    const den = d00 * d11 - d01 * d01;
    const v = den > 0 ? (d11 * d20 - d01 * d21) / den : 0;
    const w = den > 0 ? (d00 * d21 - d01 * d20) / den : 0;
    this.weight[at] = 1 - v - w;
    this.weight[at + 1] = v;
    this.weight[at + 2] = w;
  }

  /**
   * Sets the moved particles of `wall` to time `time` (s): position = anchor point + offset turned by the rotation that
   * takes the anchor triangle's reference normal to its normal now (the shortest rotation), normal turned the same
   * way, velocity and acceleration those of the anchor point (the interpolation's first and second time derivatives
   * at the barycentric coordinates; the offset's turning rate is left out: the shell is a few dp thick), volume scaled
   * by the anchor triangle's area change (the shell stretches or shrinks with the surface and keeps its thickness: a
   * squeezed wall whose particles kept their volume would hold more wall per area, and the fluid's density summation
   * would push the fluid off it).
   */
  moveTo(wall: ParticleArrays, time: number): void {
    const { pos, vel, acc, tri, face } = this;
    this.frames.evaluate(time, pos, vel, acc);
    for (let i = 0; i < this.count; i++) {
      const k = this.anchor[i]!;
      const a = 3 * tri[3 * k]!;
      const b = 3 * tri[3 * k + 1]!;
      const c = 3 * tri[3 * k + 2]!;
      const la = this.weight[3 * i]!;
      const lb = this.weight[3 * i + 1]!;
      const lc = this.weight[3 * i + 2]!;
      const at = (f: Float64Array, e: number): number => la * f[a + e]! + lb * f[b + e]! + lc * f[c + e]!;
      // Shortest rotation from the reference face normal f0 to the current one f: R u = u cos + (s × u) + s (s·u)/(1 + cos).
      let sx = 0;
      let sy = 0;
      let sz = 0;
      let cos = 1;
      const f0x = this.face0[3 * i]!;
      const f0y = this.face0[3 * i + 1]!;
      const f0z = this.face0[3 * i + 2]!;
      const area = f0x !== 0 || f0y !== 0 || f0z !== 0 ? triangleNormal(pos, a, b, c, face, 0) : 0;
      if (area > 0) {
        sx = f0y * face[2]! - f0z * face[1]!;
        sy = f0z * face[0]! - f0x * face[2]!;
        sz = f0x * face[1]! - f0y * face[0]!;
        cos = f0x * face[0]! + f0y * face[1]! + f0z * face[2]!;
        if (cos <= -0.5) {
          // A face turned by more than 120° between frames: no meaningful rotation; keep the reference orientation.
          sx = sy = sz = 0;
          cos = 1;
        }
      }
      const k1 = 1 / (1 + cos);
      const turn = (ux: number, uy: number, uz: number, out: Float64Array): void => {
        const sd = (sx * ux + sy * uy + sz * uz) * k1;
        out[0] = ux * cos + (sy * uz - sz * uy) + sx * sd;
        out[1] = uy * cos + (sz * ux - sx * uz) + sy * sd;
        out[2] = uz * cos + (sx * uy - sy * ux) + sz * sd;
      };
      turn(this.offset[3 * i]!, this.offset[3 * i + 1]!, this.offset[3 * i + 2]!, face);
      wall.x[i] = at(pos, 0) + face[0]!;
      wall.y[i] = at(pos, 1) + face[1]!;
      wall.z[i] = at(pos, 2) + face[2]!;
      turn(this.normal0[3 * i]!, this.normal0[3 * i + 1]!, this.normal0[3 * i + 2]!, face);
      wall.nx[i] = face[0]!;
      wall.ny[i] = face[1]!;
      wall.nz[i] = face[2]!;
      wall.vx[i] = at(vel, 0);
      wall.vy[i] = at(vel, 1);
      wall.vz[i] = at(vel, 2);
      wall.ax[i] = at(acc, 0);
      wall.ay[i] = at(acc, 1);
      wall.az[i] = at(acc, 2);
      // The shell keeps its thickness and stretches with the surface: the volume follows the anchor's area.
      const vol = area > 0 && this.volumePerArea[i]! > 0 ? this.volumePerArea[i]! * area : this.volume0[i]!;
      wall.mass[i] = (wall.mass[i]! / wall.vol[i]!) * vol;
      wall.vol[i] = vol;
    }
  }
}
