import type { TriangleMesh } from '@insilico/mesh';
import type { Domain } from './cellList';
import { WeaklyCompressibleFluid } from './fluid';
import { forEachLatticePoint, type Shape } from './geometry';
import { meshShape, type MeshShape, type MeshShapeOptions } from './meshShape';
import { MovingWall, type WallMotionOptions } from './movingWall';
import { OpenBoundaryFluid, type PressureOutletOptions, type VelocityInletOptions } from './openBoundary';
import { ParticleArrays } from './particles';
import type { ViscosityModel } from './viscosity';

/**
 * Lumen and walls from a closed organ mesh (issue 15, item 3): the inside of a closed triangle mesh (a blood pool or a
 * vessel) filled with fluid particles, its surface shell with wall particles whose normals come from the mesh, both
 * clipped by the inlet and outlet planes where the buffers of `openBoundary.ts` attach. See
 * docs/decisions/sph-vessel-from-mesh.md.
 */

/** An opening of the vessel: a plane through `centre` with a section of `radius` (SI units, m). */
interface VesselOpening {
  /** Centre of the section (a point of the plane inside the lumen), m. */
  centre: readonly [number, number, number];
  /** Inlets: the flow direction into the vessel; outlets: the direction out of it. */
  direction: readonly [number, number, number];
  /**
   * Section radius, m: the largest distance from `centre` to the lumen's edge in the plane. The buffer takes the fluid
   * within it; the mesh beyond the buffer is cut away within it (fluid: within radius + wall thickness).
   */
  radius: number;
  /** Buffer length, m (default 4 dp; at least 2.6 dp). */
  length?: number;
}

/** A velocity inlet of a vessel (see `VelocityInletOptions`). */
export type VesselInlet = VesselOpening & Pick<VelocityInletOptions, 'flowRate' | 'profile'>;

/** A pressure outlet of a vessel (see `PressureOutletOptions`). */
export type VesselOutlet = VesselOpening & Pick<PressureOutletOptions, 'pressure' | 'refillGuard'>;

/** Settings of `vesselFromMesh` (SI units; the mesh's coordinates are scaled by `scale`, default mm → m). */
export interface VesselOptions extends MeshShapeOptions {
  /** Particle spacing, m. */
  dp: number;
  /** Density of the fluid (and of the wall particles), kg/m³. */
  rho0: number;
  /** Wall particle layers: the shell is `wallLayers` dp thick (default 4; at least 3 for the kernel's 2.6 dp reach). */
  wallLayers?: number;
  inlets: readonly VesselInlet[];
  outlets: readonly VesselOutlet[];
  /** Fluid capacity as a multiple of the initial count, for the particles the inlets create (default 1.5). */
  capacityFactor?: number;
  /**
   * Move the wall with the heart cycle through these frames (`movingWall.ts`; the mesh is frame 0, at time 0). Default
   * none: a static wall. The lumen is filled from the mesh, so the fluid starts in frame 0's shape.
   */
  motion?: WallMotionOptions;
}

/** Particles and boundary settings of a vessel, ready for `WeaklyCompressibleFluid` and `OpenBoundaryFluid`. */
export interface Vessel {
  /** Fluid particles on the lattice inside the mesh, between the far ends of the buffers. */
  fluid: ParticleArrays;
  /** Wall particles in the shell outside the mesh, unit normals pointing into the lumen (towards the surface). */
  wall: ParticleArrays;
  /** A domain enclosing both, not periodic. */
  domain: Domain;
  /** The mesh as a shape (m). */
  shape: MeshShape;
  inlets: VelocityInletOptions[];
  outlets: PressureOutletOptions[];
  /** The wall's motion (all of `wall`'s particles), when `motion` was given. */
  motion?: MovingWall;
}

interface Cut {
  cx: number;
  cy: number;
  cz: number;
  /** Unit normal pointing out of the vessel. */
  ox: number;
  oy: number;
  oz: number;
  radius: number;
  length: number;
}

/** Axial position past the plane (along the outward normal) and distance from the axis of a point. */
function local(c: Cut, x: number, y: number, z: number): { s: number; r: number } {
  const rx = x - c.cx;
  const ry = y - c.cy;
  const rz = z - c.cz;
  const s = rx * c.ox + ry * c.oy + rz * c.oz;
  return { s, r: Math.hypot(rx - s * c.ox, ry - s * c.oy, rz - s * c.oz) };
}

/**
 * Fills the closed `mesh` with fluid particles and its surface shell with wall particles at spacing `dp`, clipped by
 * the inlet and outlet planes, on one lattice (cell centres of a grid anchored at the mesh's bounding box widened by
 * the wall thickness), so fluid and wall meet without gap or overlap. The fluid keeps the part of the lumen up to one
 * buffer length beyond each plane (the buffers of the open boundaries); the mesh beyond that, within the section, is
 * cut away: there the fluid leaves and enters, and a cap of the closed mesh would otherwise block it. Wall particles
 * lie outside the mesh within `wallLayers` dp of its surface; each normal is the direction to the nearest point of
 * the surface (into the lumen, the engine's convention for wall normals), independent of the triangles' winding.
 * Throws a RangeError when a plane does not fit the mesh (centre outside the lumen, mesh too short for the buffer,
 * lumen wider than the given radius).
 */
export function vesselFromMesh(mesh: TriangleMesh, o: VesselOptions): Vessel {
  const { dp, rho0 } = o;
  if (!(dp > 0)) throw new RangeError('dp must be positive');
  if (!(rho0 > 0)) throw new RangeError('the density must be positive');
  const layers = o.wallLayers ?? 4;
  if (!Number.isInteger(layers) || layers < 3) throw new RangeError('wallLayers must be a whole number ≥ 3');
  if (o.inlets.length + o.outlets.length === 0) throw new RangeError('give at least one inlet or outlet');
  const shape = meshShape(mesh, o);
  const t = layers * dp;
  const cuts: Cut[] = [];
  const openings = [
    ...o.inlets.map((p, k) => ({ p, sign: -1, what: `inlet ${k + 1}` })),
    ...o.outlets.map((p, k) => ({ p, sign: 1, what: `outlet ${k + 1}` })),
  ];
  for (const { p, sign, what } of openings) {
    const [dx, dy, dz] = p.direction;
    const n = Math.hypot(dx, dy, dz);
    if (!(n > 0)) throw new RangeError(`${what}: the direction must not be zero`);
    if (!(p.radius > 0)) throw new RangeError(`${what}: the radius must be positive`);
    const length = p.length ?? 4 * dp;
    if (!(length >= 2.6 * dp)) throw new RangeError(`${what}: the buffer must be at least 2.6 dp long`);
    const c: Cut = {
      cx: p.centre[0],
      cy: p.centre[1],
      cz: p.centre[2],
      ox: (sign * dx) / n,
      oy: (sign * dy) / n,
      oz: (sign * dz) / n,
      radius: p.radius,
      length,
    };
    if (!shape.contains(c.cx, c.cy, c.cz)) throw new RangeError(`${what}: the centre lies outside the mesh`);
    const e = length - dp / 2;
    if (!shape.contains(c.cx + e * c.ox, c.cy + e * c.oy, c.cz + e * c.oz)) {
      throw new RangeError(`${what}: the mesh must reach at least one buffer length (${length} m) beyond the plane`);
    }
    cuts.push(c);
  }
  /** Whether the point lies beyond a buffer's end within `extra` m more than the section radius. */
  const cutAway = (x: number, y: number, z: number, extra: number): boolean =>
    cuts.some((c) => {
      const { s, r } = local(c, x, y, z);
      return s > c.length && r < c.radius + extra;
    });
  const lattice: Shape = {
    lower: [shape.lower[0] - t, shape.lower[1] - t, shape.lower[2] - t],
    upper: [shape.upper[0] + t, shape.upper[1] + t, shape.upper[2] + t],
    contains: () => true,
  };
  const vol = dp * dp * dp;
  const fluidPoints: number[] = [];
  const wallPoints: number[] = [];
  const q: [number, number, number] = [0, 0, 0];
  forEachLatticePoint(lattice, dp, 3, (x, y, z) => {
    if (shape.contains(x, y, z)) {
      if (!cutAway(x, y, z, t)) fluidPoints.push(x, y, z);
      return;
    }
    if (cutAway(x, y, z, 0)) return;
    shellPoint(shape, x, y, z, t, dp, q, wallPoints);
  });
  // Sections wider than the given radius would leave fluid in a buffer zone that the boundary does not handle.
  for (let k = 0; k < openings.length; k++) {
    const c = cuts[k]!;
    let widest = 0;
    for (let i = 0; i < fluidPoints.length; i += 3) {
      const { s, r } = local(c, fluidPoints[i]!, fluidPoints[i + 1]!, fluidPoints[i + 2]!);
      if (s > -dp && s <= c.length && r < c.radius + t) widest = Math.max(widest, r);
    }
    if (widest >= c.radius) {
      throw new RangeError(
        `${openings[k]!.what}: the lumen is wider than the radius ${c.radius} m at the plane (fluid at ${widest.toPrecision(4)} m from the centre)`,
      );
    }
  }
  const nf = fluidPoints.length / 3;
  if (nf === 0) throw new RangeError('the mesh holds no fluid particle at this dp');
  const fluid = new ParticleArrays(3, Math.ceil(nf * (o.capacityFactor ?? 1.5)) + 64);
  for (let i = 0; i < fluidPoints.length; i += 3)
    fluid.add(fluidPoints[i]!, fluidPoints[i + 1]!, fluidPoints[i + 2]!, vol, rho0);
  const wall = wallParticles(wallPoints, vol, rho0);
  const transform: MeshShapeOptions = {
    ...(o.scale !== undefined ? { scale: o.scale } : {}),
    ...(o.offset ? { offset: o.offset } : {}),
  };
  const motion = o.motion ? new MovingWall(mesh, shape, wall, o.motion, transform) : undefined;
  // A moving wall stays within the frames' box (the spline may overshoot it a little between frames: 2 dp more).
  const m = t + (motion ? 4 : 2) * dp;
  const box = motion ? motion.bounds() : shape;
  const domain: Domain = {
    lower: [box.lower[0] - m, box.lower[1] - m, box.lower[2] - m],
    upper: [box.upper[0] + m, box.upper[1] + m, box.upper[2] + m],
    periodic: [false, false, false],
  };
  const inlets: VelocityInletOptions[] = o.inlets.map((p, k) => ({
    centre: p.centre,
    direction: p.direction,
    radius: p.radius,
    length: cuts[k]!.length,
    flowRate: p.flowRate,
    ...(p.profile ? { profile: p.profile } : {}),
  }));
  const outlets: PressureOutletOptions[] = o.outlets.map((p, k) => ({
    centre: p.centre,
    direction: p.direction,
    radius: p.radius,
    length: cuts[o.inlets.length + k]!.length,
    pressure: p.pressure,
    ...(p.refillGuard === undefined ? {} : { refillGuard: p.refillGuard }),
  }));
  return { fluid, wall, domain, shape, inlets, outlets, ...(motion ? { motion } : {}) };
}

/**
 * A lattice point outside `shape` within `thickness` of its surface becomes a wall point of `out` (x, y, z and the
 * unit normal towards the nearest surface point, into the lumen); points inside or farther away are skipped.
 */
function shellPoint(
  shape: MeshShape,
  x: number,
  y: number,
  z: number,
  thickness: number,
  dp: number,
  q: [number, number, number],
  out: number[],
): void {
  const d = shape.nearest(x, y, z, q, thickness);
  if (d >= thickness) return;
  if (d > 1e-9 * dp) {
    out.push(x, y, z, (q[0] - x) / d, (q[1] - y) / d, (q[2] - z) / d);
    return;
  }
  // On the surface (a lattice point on a facet): the signed distance's gradient, negated, points inwards.
  const h = dp / 8;
  const g = (ax: number, ay: number, az: number): number =>
    shape.distance!(x + h * ax, y + h * ay, z + h * az) - shape.distance!(x - h * ax, y - h * ay, z - h * az);
  const gx = g(1, 0, 0);
  const gy = g(0, 1, 0);
  const gz = g(0, 0, 1);
  const len = Math.hypot(gx, gy, gz) || 1;
  out.push(x, y, z, -gx / len, -gy / len, -gz / len);
}

/** Wall particles from `shellPoint`'s points (six numbers each). */
function wallParticles(points: readonly number[], vol: number, rho0: number): ParticleArrays {
  const wall = new ParticleArrays(3, Math.max(1, points.length / 6));
  for (let i = 0; i < points.length; i += 6) {
    const k = wall.add(points[i]!, points[i + 1]!, points[i + 2]!, vol, rho0);
    wall.nx[k] = points[i + 3]!;
    wall.ny[k] = points[i + 4]!;
    wall.nz[k] = points[i + 5]!;
  }
  return wall;
}

/** Settings of `vesselShell` (SI units; the mesh's coordinates are scaled by `scale`, default mm → m). */
export interface VesselShellOptions extends MeshShapeOptions {
  /** Particle spacing, m. */
  dp: number;
  /** Wall particle layers: the shell is `wallLayers` dp thick (default 3, the kernel's 2.6 dp reach). */
  wallLayers?: number;
  /**
   * Keep only the shell between two planes across an axis: the points whose position along `direction` from
   * `origin` lies in [from, to] (m). A device touches a short length of a long vessel; the rest would cost particles.
   */
  axialRange?: {
    origin: readonly [number, number, number];
    direction: readonly [number, number, number];
    from: number;
    to: number;
  };
}

/**
 * The surface shell of a closed mesh alone, as the rigid anatomy of a solid case (a device expanding into a vessel,
 * `contact.ts`): wall particles outside the mesh within `wallLayers` dp of its surface, on the same lattice and with
 * the same normals (towards the nearest surface point, into the lumen, i.e. out of the wall material) as
 * `vesselFromMesh`'s wall, without fluid or openings. Throws a RangeError when no particle is left.
 */
export function vesselShell(mesh: TriangleMesh, o: VesselShellOptions): ParticleArrays {
  const { dp } = o;
  if (!(dp > 0)) throw new RangeError('dp must be positive');
  const layers = o.wallLayers ?? 3;
  if (!Number.isInteger(layers) || layers < 3) throw new RangeError('wallLayers must be a whole number ≥ 3');
  const shape = meshShape(mesh, o);
  const t = layers * dp;
  const range = o.axialRange;
  let inRange = (_x: number, _y: number, _z: number): boolean => true;
  if (range) {
    const n = Math.hypot(...range.direction);
    if (!(n > 0)) throw new RangeError('the axial range needs a direction');
    if (!(range.to >= range.from)) throw new RangeError('the axial range must not be empty');
    const [ax, ay, az] = range.direction.map((v) => v / n) as [number, number, number];
    const [ox, oy, oz] = range.origin;
    inRange = (x, y, z) => {
      const s = (x - ox) * ax + (y - oy) * ay + (z - oz) * az;
      return s >= range.from && s <= range.to;
    };
  }
  const lattice: Shape = {
    lower: [shape.lower[0] - t, shape.lower[1] - t, shape.lower[2] - t],
    upper: [shape.upper[0] + t, shape.upper[1] + t, shape.upper[2] + t],
    contains: () => true,
  };
  const points: number[] = [];
  const q: [number, number, number] = [0, 0, 0];
  forEachLatticePoint(lattice, dp, 3, (x, y, z) => {
    if (!inRange(x, y, z) || shape.contains(x, y, z)) return;
    shellPoint(shape, x, y, z, t, dp, q, points);
  });
  if (points.length === 0) throw new RangeError('the vessel shell holds no particle at this dp (and axial range)');
  return wallParticles(points, dp * dp * dp, 1);
}

/** Fluid settings of `openVessel` (SI units). */
export interface VesselFlowOptions extends VesselOptions {
  /** Dynamic viscosity, Pa·s (the zero-shear one with a shear-thinning `viscosity` model). */
  mu: number;
  /** Shear-thinning viscosity (default Newtonian `mu`). */
  viscosity?: ViscosityModel;
  /** Largest expected flow speed, m/s (advection time step). */
  uRef: number;
  /** Artificial sound speed, m/s (default 10 × uRef; raise it when the pressure drop is large: Δp/(ρ₀c₀²) ≲ 1 %). */
  c0?: number;
  /** Body-force acceleration, m/s² (default none). */
  gravity?: readonly [number, number, number];
}

/**
 * An internal flow through the closed `mesh`: `vesselFromMesh`'s particles as a weakly compressible fluid (no free
 * surface, transport-velocity correction 0.2 h²) with its velocity inlets and pressure outlets.
 */
export function openVessel(mesh: TriangleMesh, o: VesselFlowOptions): OpenBoundaryFluid {
  const v = vesselFromMesh(mesh, o);
  const sim = new WeaklyCompressibleFluid(v.fluid, v.wall, {
    dim: 3,
    dp: o.dp,
    rho0: o.rho0,
    c0: o.c0 ?? 10 * o.uRef,
    mu: o.mu,
    gravity: o.gravity ?? [0, 0, 0],
    uRef: o.uRef,
    freeSurface: false,
    transportCorrection: 0.2,
    domain: v.domain,
    ...(o.viscosity ? { viscosity: o.viscosity } : {}),
    ...(v.motion ? { wallMotion: v.motion } : {}),
  });
  return new OpenBoundaryFluid(sim, v.inlets, v.outlets);
}
