import { ParticleArrays, type Dimension } from './particles';

/** Analytic solid shape: a bounding box and an inside test. */
export interface Shape {
  /** Lower corner of the bounding box, m. */
  readonly lower: readonly [number, number, number];
  /** Upper corner of the bounding box, m. */
  readonly upper: readonly [number, number, number];
  /** True when the point (m) lies inside the shape. */
  contains(x: number, y: number, z: number): boolean;
  /**
   * Signed distance (m) from the point to the surface, negative inside (used by particle relaxation). Given `band`
   * (m), a shape may stop searching beyond it: the value is then exact where |d| < band, and elsewhere has the right
   * sign and a magnitude of at least `band` (closed meshes do this; analytic shapes are always exact). Absent for
   * shapes that offer only an inside test.
   */
  distance?(x: number, y: number, z: number, band?: number): number;
}

/** Axis-aligned box [lower, upper] (m); an empty z range (lower z = upper z) means a 2D box. */
export function box(lower: readonly [number, number, number], upper: readonly [number, number, number]): Shape {
  const flat = lower[2] === upper[2];
  return {
    lower,
    upper,
    contains: (x, y, z) =>
      x > lower[0] && x < upper[0] && y > lower[1] && y < upper[1] && (flat || (z > lower[2] && z < upper[2])),
    distance: (x, y, z) => {
      // Per axis: distance outside the slab (> 0) or minus the depth inside it (< 0).
      const qx = Math.max(lower[0] - x, x - upper[0]);
      const qy = Math.max(lower[1] - y, y - upper[1]);
      const qz = flat ? -Infinity : Math.max(lower[2] - z, z - upper[2]);
      const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0));
      return outside > 0 ? outside : Math.max(qx, qy, qz);
    },
  };
}

/** Disc (2D; z ignored) or ball (3D) of `radius` m about `centre` (m). */
export function ball(centre: readonly [number, number, number], radius: number, dim: Dimension): Shape {
  const [cx, cy, cz] = centre;
  const r2 = radius * radius;
  return {
    lower: [cx - radius, cy - radius, dim === 3 ? cz - radius : 0],
    upper: [cx + radius, cy + radius, dim === 3 ? cz + radius : 0],
    contains: (x, y, z) => {
      const dz = dim === 3 ? z - cz : 0;
      return (x - cx) ** 2 + (y - cy) ** 2 + dz * dz < r2;
    },
    distance: (x, y, z) => Math.hypot(x - cx, y - cy, dim === 3 ? z - cz : 0) - radius,
  };
}

/** Points in `a` or in `b`; the bounding box covers both. */
export function union(a: Shape, b: Shape): Shape {
  const da = a.distance;
  const db = b.distance;
  return {
    lower: [Math.min(a.lower[0], b.lower[0]), Math.min(a.lower[1], b.lower[1]), Math.min(a.lower[2], b.lower[2])],
    upper: [Math.max(a.upper[0], b.upper[0]), Math.max(a.upper[1], b.upper[1]), Math.max(a.upper[2], b.upper[2])],
    contains: (x, y, z) => a.contains(x, y, z) || b.contains(x, y, z),
    // min(d_a, d_b): exact outside both shapes, and inside as long as the shapes do not overlap deeply.
    ...(da && db
      ? { distance: (x: number, y: number, z: number, band?: number) => Math.min(da(x, y, z, band), db(x, y, z, band)) }
      : {}),
  };
}

/** Points of `outer` that are not in `inner` (e.g. a wall shell around a container). */
export function subtract(outer: Shape, inner: Shape): Shape {
  const dOut = outer.distance;
  const dIn = inner.distance;
  return {
    lower: outer.lower,
    upper: outer.upper,
    contains: (x, y, z) => outer.contains(x, y, z) && !inner.contains(x, y, z),
    // max(d_outer, −d_inner): exact away from the edges where the two surfaces meet (a bound there).
    ...(dOut && dIn
      ? {
          distance: (x: number, y: number, z: number, band?: number) =>
            Math.max(dOut(x, y, z, band), -dIn(x, y, z, band)),
        }
      : {}),
  };
}

/**
 * Calls `visit(x, y, z)` for every lattice point lower + (i + ½)·dp inside `shape` (the SPHinXsys
 * lattice: cell centres of a grid anchored at the bounding-box lower corner). Returns the count.
 */
export function forEachLatticePoint(
  shape: Shape,
  dp: number,
  dim: Dimension,
  visit: (x: number, y: number, z: number) => void,
): number {
  const [lx, ly, lz] = shape.lower;
  const [ux, uy, uz] = shape.upper;
  const n = (lo: number, hi: number): number => Math.max(0, Math.ceil((hi - lo) / dp - 1e-9));
  const nx = n(lx, ux);
  const ny = n(ly, uy);
  const nz = dim === 3 ? n(lz, uz) : 1;
  let count = 0;
  for (let k = 0; k < nz; k++) {
    const z = dim === 3 ? lz + (k + 0.5) * dp : 0;
    for (let j = 0; j < ny; j++) {
      const y = ly + (j + 0.5) * dp;
      for (let i = 0; i < nx; i++) {
        const x = lx + (i + 0.5) * dp;
        if (shape.contains(x, y, z)) {
          visit(x, y, z);
          count++;
        }
      }
    }
  }
  return count;
}

/** Number of lattice points of `shape` at spacing `dp` (m). */
export function countLatticePoints(shape: Shape, dp: number, dim: Dimension): number {
  return forEachLatticePoint(shape, dp, dim, () => undefined);
}

/**
 * Fills a new particle body with the lattice points of `shape` at spacing `dp` (m), each of volume
 * dp^dim and density `rho` (kg/m³). `extra` reserves slots beyond the lattice count.
 */
export function particlesFromShape(shape: Shape, dp: number, dim: Dimension, rho: number, extra = 0): ParticleArrays {
  const n = countLatticePoints(shape, dp, dim);
  const particles = new ParticleArrays(dim, n + extra);
  const vol = dim === 3 ? dp * dp * dp : dp * dp;
  forEachLatticePoint(shape, dp, dim, (x, y, z) => particles.add(x, y, z, vol, rho));
  return particles;
}

/**
 * Wall particles filling the shell `thickness` (m) thick around the inside of the box container
 * [lower, upper] (m), at spacing `dp`, with normals pointing into the container (towards the
 * nearest point of the box). `open` axes sides (e.g. 'y+') are left without wall.
 */
export function boxContainerWall(
  lower: readonly [number, number, number],
  upper: readonly [number, number, number],
  thickness: number,
  dp: number,
  dim: Dimension,
  rho: number,
  open: readonly ('x-' | 'x+' | 'y-' | 'y+' | 'z-' | 'z+')[] = [],
): ParticleArrays {
  const t = thickness;
  const grow = (side: 'x' | 'y' | 'z', sign: '-' | '+'): number => (open.includes(`${side}${sign}`) ? 0 : t);
  const outerLower: [number, number, number] = [lower[0] - t, lower[1] - t, dim === 3 ? lower[2] - t : 0];
  const outerUpper: [number, number, number] = [upper[0] + t, upper[1] + t, dim === 3 ? upper[2] + t : 0];
  // Open sides: extend the inner box through the wall so no particle is placed there.
  const innerLower: [number, number, number] = [
    lower[0] - (t - grow('x', '-')) * 2,
    lower[1] - (t - grow('y', '-')) * 2,
    lower[2] - (t - grow('z', '-')) * 2,
  ];
  const innerUpper: [number, number, number] = [
    upper[0] + (t - grow('x', '+')) * 2,
    upper[1] + (t - grow('y', '+')) * 2,
    upper[2] + (t - grow('z', '+')) * 2,
  ];
  if (dim === 2) innerLower[2] = innerUpper[2] = 0;
  const shell = subtract(box(outerLower, outerUpper), box(innerLower, innerUpper));
  const wall = particlesFromShape(shell, dp, dim, rho);
  for (let i = 0; i < wall.count; i++) {
    const px = wall.x[i]!;
    const py = wall.y[i]!;
    const pz = wall.z[i]!;
    const qx = Math.min(Math.max(px, lower[0]), upper[0]);
    const qy = Math.min(Math.max(py, lower[1]), upper[1]);
    const qz = dim === 3 ? Math.min(Math.max(pz, lower[2]), upper[2]) : 0;
    const dx = qx - px;
    const dy = qy - py;
    const dz = qz - pz;
    const len = Math.hypot(dx, dy, dz) || 1;
    wall.nx[i] = dx / len;
    wall.ny[i] = dy / len;
    wall.nz[i] = dz / len;
  }
  return wall;
}

/**
 * Wall particles for a channel bounded by the planes y = y0 and y = y1 (m), `layers` particle
 * layers thick on each side, spanning x in [x0, x1) (and z in [z0, z1) in 3D), at spacing `dp`.
 * Normals point into the channel (±y).
 */
export function channelWalls(
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  layers: number,
  dp: number,
  dim: Dimension,
  rho: number,
  z0 = 0,
  z1 = 0,
): ParticleArrays {
  const t = layers * dp;
  const zHi = dim === 3 ? z1 : z0;
  const below = box([x0, y0 - t, z0], [x1, y0, zHi]);
  const above = box([x0, y1, z0], [x1, y1 + t, zHi]);
  const n = countLatticePoints(below, dp, dim) + countLatticePoints(above, dp, dim);
  const wall = new ParticleArrays(dim, n);
  const vol = dim === 3 ? dp * dp * dp : dp * dp;
  const add = (ny: number) => (x: number, y: number, z: number) => {
    const i = wall.add(x, y, z, vol, rho);
    wall.ny[i] = ny;
  };
  forEachLatticePoint(below, dp, dim, add(1));
  forEachLatticePoint(above, dp, dim, add(-1));
  return wall;
}
