import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readStl, type TriangleMesh } from '@insilico/mesh';
import type { Geometry, Region, SphCase } from './caseFile';
import { CellLinkedList, type Domain } from './cellList';
import { FLUID_STATE, packArrays, unpackArrays, type PackedArray } from './checkpoint';
import { ContactSimulation, elasticContactBody, rigidContactBody, type ContactBody, type ContactSpec } from './contact';
import { DeviceExpansion, type ExpansionRecord } from './expansion';
import { frameToCsv, frameToVtp } from './exporters';
import { WeaklyCompressibleFluid, type FluidOptions } from './fluid';
import { FluidStructureInteraction } from './fsi';
import { ball, box, boxContainerWall, particlesFromShape, subtract, union, type Shape } from './geometry';
import { WendlandC2, smoothingLength } from './kernel';
import { meshShape } from './meshShape';
import { NeighbourList, buildNeighbours } from './neighbours';
import { OpenBoundaryFluid } from './openBoundary';
import { buildManifest, encodeFrame, fluidOutput, type Manifest, type ObjectKind, type OutputSource } from './output';
import { ParticleArrays } from './particles';
import type { WorkerPool } from './pool';
import { runAsync, type RunStatus } from './run';
import { ElasticSolid, startSolidThreads } from './solid';
import { relaxParticles } from './relaxation';
import { ParticleTracker } from './tracking';
import { BLOOD_CARREAU } from './viscosity';
import { vesselFromMesh, vesselShell } from './vessel';
import type { MovingWall, WallMotionOptions } from './movingWall';
import { CaseMonitors } from './monitors';

/** One output object of a case. */
interface CaseObject {
  name: string;
  kind: ObjectKind;
  output(): OutputSource;
}

/**
 * The bodies of a case, stepped together: a fluid with walls and tracked particles, solids, or both (coupled by
 * `FluidStructureInteraction`, the solids then also being walls of the fluid).
 */
export class CaseSimulation {
  readonly counters = { time: 0 };
  readonly fluid: WeaklyCompressibleFluid | undefined;
  readonly trackers: { name: string; tracker: ParticleTracker }[];
  readonly solids: { name: string; solid: ElasticSolid }[];
  /** The coupling, when the case has a fluid and solids. */
  readonly fsi: FluidStructureInteraction | undefined;
  /** The inlets and outlets, when the fluid has any. */
  readonly open: OpenBoundaryFluid | undefined;
  /** The case file's monitors (derived outputs written to `monitors.csv`), if any. */
  monitors: CaseMonitors | undefined = undefined;
  /** Signed distance to the wall surface when every wall comes from a vessel mesh (for the wall shear stress). */
  wallSurface: ((x: number, y: number, z: number) => number) | undefined = undefined;
  /** The pool of uncoupled solids (`startThreads`). */
  private solidPool: WorkerPool | null = null;
  /** Solids in contact with the walls and each other (no fluid), stepped by it. */
  contact: ContactSimulation | undefined = undefined;
  /** The expanded device, when a solid has `expansion` (its simulation is `contact`). */
  expansion: DeviceExpansion | undefined = undefined;

  constructor(
    fluid: WeaklyCompressibleFluid | FluidStructureInteraction | OpenBoundaryFluid | undefined,
    trackers: { name: string; tracker: ParticleTracker }[],
    solids: { name: string; solid: ElasticSolid }[],
  ) {
    this.fsi = fluid instanceof FluidStructureInteraction ? fluid : undefined;
    this.open = fluid instanceof OpenBoundaryFluid ? fluid : undefined;
    this.fluid =
      fluid instanceof FluidStructureInteraction ? fluid.fluid : fluid instanceof OpenBoundaryFluid ? fluid.sim : fluid;
    this.trackers = trackers;
    this.solids = solids;
  }

  /**
   * One step towards `endTime` (s): a fluid advection step (with the coupled solids sub-cycled in it, then the
   * tracked particles), or a common solid step.
   */
  step(endTime: number): void {
    const before = this.counters.time;
    if (this.fluid) {
      (this.fsi ?? this.open ?? this.fluid).step(endTime);
      this.counters.time = this.fluid.counters.time;
      for (const { tracker } of this.trackers) tracker.advance(this.counters.time - before);
      this.monitors?.afterStep(this.counters.time);
      return;
    }
    if (this.contact) {
      this.contact.step(endTime);
      this.counters.time = this.contact.counters.time;
      return;
    }
    let dt = endTime - before;
    for (const { solid } of this.solids) dt = Math.min(dt, solid.timeStep());
    for (const { solid } of this.solids) solid.advance(dt);
    this.counters.time = before + dt;
  }

  /**
   * Runs every body's passes on `threads` threads: the fluid's (with the coupled solids) or the solids' pool.
   * Results do not depend on the thread count. Call `stopThreads` when done.
   */
  async startThreads(threads: number): Promise<void> {
    await this.stopThreads();
    if (this.fsi) await this.fsi.startThreads(threads);
    else if (this.fluid) await this.fluid.startThreads(threads);
    else if (this.contact) await this.contact.startThreads(threads);
    else
      this.solidPool = await startSolidThreads(
        this.solids.map(({ solid }) => solid),
        threads,
      );
  }

  /** Stops the pools; later steps run on the calling thread. */
  async stopThreads(): Promise<void> {
    if (this.fsi) await this.fsi.stopThreads();
    else if (this.fluid) await this.fluid.stopThreads();
    await this.contact?.stopThreads();
    for (const { solid } of this.solids) await solid.stopThreads();
    const pool = this.solidPool;
    this.solidPool = null;
    await pool?.close();
  }

  /** The output objects, fluid first. */
  objects(): CaseObject[] {
    const out: CaseObject[] = [];
    const fluid = this.fluid;
    if (fluid) out.push({ name: this.fluidName, kind: 'fluid', output: () => fluidOutput(fluid.fluid) });
    for (const { name, tracker } of this.trackers)
      out.push({ name, kind: 'particles', output: () => tracker.output() });
    for (const { name, solid } of this.solids) out.push({ name, kind: 'solid', output: () => solid.output() });
    return out;
  }

  /** Name of the fluid object. */
  fluidName = 'fluid';

  /** The state needed to continue the run (everything else follows from the case). */
  checkpoint(): Uint8Array {
    const arrays: PackedArray[] = [];
    const f = this.fluid;
    if (this.open) arrays.push(...this.open.state());
    if (f) {
      for (const name of FLUID_STATE)
        arrays.push({ name: `fluid.${name}`, data: f.fluid[name].subarray(0, f.fluid.count) });
      if (this.open) arrays.push({ name: 'fluid.id', data: f.fluid.id.subarray(0, f.fluid.count) });
    }
    for (const { name, tracker } of this.trackers) {
      const p = tracker.particles;
      for (const field of ['x', 'y', 'z', 'vx', 'vy', 'vz'] as const) {
        arrays.push({ name: `${name}.${field}`, data: p[field].subarray(0, p.count) });
      }
      arrays.push({ name: `${name}.captured`, data: tracker.captured.subarray(0, p.count) });
      arrays.push({ name: `${name}.captureTime`, data: tracker.captureTime.subarray(0, p.count) });
      arrays.push({ name: `${name}.capturedBy`, data: tracker.capturedBy.subarray(0, p.count) });
    }
    for (const { name, solid } of this.solids) {
      const p = solid.particles;
      for (const field of ['x', 'y', 'z', 'vx', 'vy', 'vz', 'ax', 'ay', 'az', 'rho'] as const) {
        arrays.push({ name: `${name}.${field}`, data: p[field].subarray(0, p.count) });
      }
      arrays.push({ name: `${name}.F`, data: solid.F.subarray(0, 9 * p.count) });
      arrays.push({ name: `${name}.dF`, data: solid.dF.subarray(0, 9 * p.count) });
      // The external (contact) acceleration of the last step: the next step's size depends on it.
      for (const field of ['apx', 'apy', 'apz'] as const) {
        arrays.push({ name: `${name}.${field}`, data: p[field].subarray(0, p.count) });
      }
    }
    // The residence time's entry times (by particle id), when monitored.
    if (this.monitors) arrays.push(...this.monitors.state());
    // The friction's stick displacements (the contact's only state besides the bodies').
    this.contact?.pairs.forEach((pair, k) => arrays.push({ name: `contact.${k}.stick`, data: pair.stick }));
    // The fluid's copy of coupled solids: positions, averaged velocities and accelerations, normals.
    if (this.fsi) {
      const w = this.fsi.fluid.wall;
      for (const field of WALL_STATE) arrays.push({ name: `walls.${field}`, data: w[field].subarray(0, w.count) });
    }
    const meta = {
      time: this.counters.time,
      fluid: f ? { ...f.counters } : null,
      fluidCount: f?.fluid.count ?? 0,
      nextId: f?.fluid.nextId ?? 0,
      solids: this.solids.map(({ solid }) => ({ ...solid.counters })),
      fsi: this.fsi ? { ...this.fsi.counters } : null,
    };
    return packArrays(meta, arrays);
  }

  /** Restores a checkpoint of the same case; throws if it does not fit. */
  restore(bytes: Uint8Array): void {
    type Meta = {
      time: number;
      fluid: WeaklyCompressibleFluid['counters'] | null;
      solids: ElasticSolid['counters'][];
      fsi?: FluidStructureInteraction['counters'] | null;
    };
    const { meta, arrays } = unpackArrays<Meta>(bytes);
    const take = (name: string, target: Float64Array, length: number): void => {
      const a = arrays.get(name);
      if (!a || a.length !== length) throw new Error(`the checkpoint does not fit this case ('${name}')`);
      target.set(a);
    };
    const f = this.fluid;
    if (this.open && f) {
      // Inlets and outlets change the particle count: take it, the ids and the boundary's tags from the checkpoint.
      const m = meta as Meta & { fluidCount?: number; nextId?: number };
      const n = m.fluidCount ?? -1;
      if (!(n >= 0 && n <= f.fluid.capacity)) throw new Error('the checkpoint does not fit this case (fluid count)');
      const ids = arrays.get('fluid.id');
      if (!(ids instanceof Int32Array) || ids.length !== n) {
        throw new Error("the checkpoint does not fit this case ('fluid.id')");
      }
      f.fluid.count = n;
      f.fluid.nextId = m.nextId ?? 0;
      f.fluid.id.set(ids);
      this.open.restore(arrays);
    }
    if (f) {
      for (const name of FLUID_STATE) take(`fluid.${name}`, f.fluid[name], f.fluid.count);
      if (!meta.fluid) throw new Error('the checkpoint does not fit this case (no fluid)');
      Object.assign(f.counters, meta.fluid);
    }
    for (const { name, tracker } of this.trackers) {
      const p = tracker.particles;
      for (const field of ['x', 'y', 'z', 'vx', 'vy', 'vz'] as const) take(`${name}.${field}`, p[field], p.count);
      take(`${name}.captured`, tracker.captured, p.count);
      take(`${name}.captureTime`, tracker.captureTime, p.count);
      // Absent from checkpoints written before the capture sets were recorded: left at −1 (unknown).
      const by = arrays.get(`${name}.capturedBy`);
      if (by && by.length === p.count) tracker.capturedBy.set(by);
    }
    this.solids.forEach(({ name, solid }, k) => {
      const p = solid.particles;
      for (const field of ['x', 'y', 'z', 'vx', 'vy', 'vz', 'ax', 'ay', 'az', 'rho'] as const) {
        take(`${name}.${field}`, p[field], p.count);
      }
      take(`${name}.F`, solid.F, 9 * p.count);
      take(`${name}.dF`, solid.dF, 9 * p.count);
      // Absent from checkpoints written before they were saved: left at zero (the next step may then differ).
      for (const field of ['apx', 'apy', 'apz'] as const) {
        if (arrays.has(`${name}.${field}`)) take(`${name}.${field}`, p[field], p.count);
      }
      Object.assign(solid.counters, meta.solids[k]);
    });
    if (this.fsi) {
      const w = this.fsi.fluid.wall;
      for (const field of WALL_STATE) take(`walls.${field}`, w[field], w.count);
      if (!meta.fsi) throw new Error('the checkpoint does not fit this case (no coupling)');
      Object.assign(this.fsi.counters, meta.fsi);
    }
    this.monitors?.restore(arrays);
    this.counters.time = meta.time;
    // The contact forces and the sheath's position follow from the state and the time; the friction's stick
    // displacements are restored (absent from checkpoints written before the stick friction: left at zero).
    if (this.contact) {
      this.contact.counters.time = meta.time;
      this.contact.pairs.forEach((pair, k) => {
        if (arrays.has(`contact.${k}.stick`)) take(`contact.${k}.stick`, pair.stick, pair.stick.length);
      });
    }
  }
}

/** Fields of the fluid's wall that a coupled solid moves (saved in checkpoints). */
const WALL_STATE = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'ax', 'ay', 'az', 'nx', 'ny', 'nz'] as const;

/** The shape of one geometry entry (STL files are read relative to `baseDir`). */
async function shapeOf(g: Geometry, dim: 2 | 3, baseDir: string): Promise<Shape> {
  switch (g.type) {
    case 'box':
      return box(g.lower, dim === 2 ? [g.upper[0], g.upper[1], g.lower[2]] : g.upper);
    case 'ball':
      return ball(g.centre, g.radius, dim);
    case 'stl': {
      if (dim !== 3) throw new Error('STL geometry needs a 3D case');
      return meshShape(await readMesh(g.file, baseDir), { scale: g.scale ?? 1e-3, offset: g.offset ?? [0, 0, 0] });
    }
  }
}

/** The frames of a vessel's moving wall (`wallMotion: 'cine'`), read from their STL files. */
async function cineMotion(
  cine: NonNullable<NonNullable<NonNullable<SphCase['fluid']>['vessel']>['cine']>,
  baseDir: string,
): Promise<WallMotionOptions> {
  return {
    frames: await Promise.all(cine.frames.map((f) => readMesh(f.file, baseDir))),
    times: cine.frames.map((f) => f.time),
    period: cine.period,
    interpolation: cine.interpolation,
  };
}

/** Reads the STL file `file` (relative to `baseDir`). */
async function readMesh(file: string, baseDir: string): Promise<TriangleMesh> {
  const path = resolve(baseDir, file);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch {
    throw new Error(`cannot read the STL file ${path}`);
  }
  return readStl(bytes);
}

/** The lattice particles of `shape`, relaxed to it when the case asks for relaxation. */
function bodyParticles(
  shape: Shape,
  dp: number,
  dim: 2 | 3,
  rho: number,
  relaxation: { steps: number } | undefined,
): ParticleArrays {
  const particles = particlesFromShape(shape, dp, dim, rho);
  if (relaxation && particles.count > 0) relaxParticles(particles, shape, { dp, steps: relaxation.steps });
  return particles;
}

/** The shape of a region: union of its shapes minus union of its subtracted shapes. */
async function regionShape(r: Region, dim: 2 | 3, baseDir: string): Promise<Shape> {
  const shapes = await Promise.all(r.shapes.map((g) => shapeOf(g, dim, baseDir)));
  let shape = shapes.reduce((a, b) => union(a, b));
  if (r.subtract?.length) {
    const cut = (await Promise.all(r.subtract.map((g) => shapeOf(g, dim, baseDir)))).reduce((a, b) => union(a, b));
    shape = subtract(shape, cut);
  }
  return shape;
}

/**
 * Unit normals of wall particles filled into a region: n = −Σ_j ∇W_ij V_j normalised, which points out of the wall
 * material (into the fluid) near its surface. Deep inside the wall the sum vanishes and the normal stays zero.
 */
function regionWallNormals(wall: ParticleArrays, dp: number, domain: Domain): void {
  const kernel = new WendlandC2(smoothingLength(dp), wall.dim);
  const cells = new CellLinkedList(domain, kernel.cutoff, Math.max(1, wall.capacity), wall.dim);
  cells.rebuild(wall);
  const list = new NeighbourList(Math.max(1, wall.count), Math.max(1, wall.count) * (wall.dim === 2 ? 32 : 96));
  buildNeighbours(wall, wall, cells, kernel, true, list);
  for (let i = 0; i < wall.count; i++) {
    let sx = 0;
    let sy = 0;
    let sz = 0;
    for (let k = list.start[i]!; k < list.end[i]!; k++) {
      const f = list.dw[k]! * wall.vol[list.j[k]!]!;
      sx -= f * list.ex[k]!;
      sy -= f * list.ey[k]!;
      sz -= f * list.ez[k]!;
    }
    // (sx, sy, sz) = −Σ ∇W V (∇W_ij = dW e_ij, e_ij from j to i) points out of the wall: the normal. (It was negated
    // until the contact's case test found the region walls' normals pointing into the wall material.)
    const len = Math.hypot(sx, sy, sz);
    if (len > 1e-6 / dp) {
      wall.nx[i] = sx / len;
      wall.ny[i] = sy / len;
      wall.nz[i] = sz / len;
    }
  }
}

/** A copy of `p` with room for `capacity` particles. */
function withCapacity(p: ParticleArrays, capacity: number): ParticleArrays {
  const out = new ParticleArrays(p.dim, capacity);
  const src = p.fields();
  const dst = out.fields();
  src.forEach((a, k) => dst[k]!.set(a.subarray(0, p.count)));
  out.count = p.count;
  out.nextId = p.nextId;
  return out;
}

/** Joins particle sets into one. */
function concat(dim: 2 | 3, sets: readonly ParticleArrays[]): ParticleArrays {
  const out = new ParticleArrays(
    dim,
    sets.reduce((n, s) => n + s.count, 0),
  );
  for (const s of sets) {
    for (let i = 0; i < s.count; i++) {
      const k = out.add(s.x[i]!, s.y[i]!, s.z[i]!, s.vol[i]!, s.rho[i]!);
      out.nx[k] = s.nx[i]!;
      out.ny[k] = s.ny[i]!;
      out.nz[k] = s.nz[i]!;
    }
  }
  return out;
}

/** Bounding box of particle sets, widened by `margin` m (z = 0 in 2D). */
function bounds(
  sets: readonly ParticleArrays[],
  dim: 2 | 3,
  margin: number,
): { lower: [number, number, number]; upper: [number, number, number] } {
  const lower: [number, number, number] = [Infinity, Infinity, dim === 3 ? Infinity : 0];
  const upper: [number, number, number] = [-Infinity, -Infinity, dim === 3 ? -Infinity : 0];
  for (const s of sets) {
    const axes = [s.x, s.y, s.z];
    for (let a = 0; a < dim; a++) {
      const v = axes[a]!;
      for (let i = 0; i < s.count; i++) {
        lower[a] = Math.min(lower[a]!, v[i]! - margin);
        upper[a] = Math.max(upper[a]!, v[i]! + margin);
      }
    }
  }
  return { lower, upper };
}

/** Builds the simulation of a validated case (`baseDir`: the case file's folder, for STL paths). */
export async function buildCase(c: SphCase, baseDir: string): Promise<CaseSimulation> {
  const dim = c.dimension;
  const dp = c.dp;
  const solids = await Promise.all(c.solids.map((s) => buildSolid(s, c, baseDir)));
  if (c.fluid) {
    const fl = c.fluid;
    const open = fl.inlets.length + fl.outlets.length > 0;
    const walls: ParticleArrays[] = [];
    let fluid: ParticleArrays;
    let fluidShape: Shape;
    let wallSurface: ((x: number, y: number, z: number) => number) | undefined;
    let wallMotion: MovingWall | undefined;
    if (fl.vessel) {
      const v = vesselFromMesh(await readMesh(fl.vessel.file, baseDir), {
        scale: fl.vessel.scale ?? 1e-3,
        offset: fl.vessel.offset ?? [0, 0, 0],
        dp,
        rho0: fl.density,
        ...(fl.vessel.wallLayers !== undefined ? { wallLayers: fl.vessel.wallLayers } : {}),
        ...(fl.vessel.wallMotion === 'cine' && fl.vessel.cine
          ? { motion: await cineMotion(fl.vessel.cine, baseDir) }
          : {}),
        inlets: fl.inlets.map((i) => ({ ...i, ...(i.length !== undefined ? { length: i.length } : {}) })),
        outlets: fl.outlets.map((o) => ({
          centre: o.centre,
          direction: o.direction,
          radius: o.radius!,
          pressure: o.pressure,
          ...(o.length !== undefined ? { length: o.length } : {}),
        })),
      });
      fluid = v.fluid;
      fluidShape = v.shape;
      walls.push(v.wall);
      wallMotion = v.motion;
      // The mesh's distance describes the wall at time 0 only: a moving wall's shear stress uses the particle normals.
      if (!c.walls && !v.motion) wallSurface = v.shape.distance;
    } else {
      fluidShape = await regionShape(fl.region!, dim, baseDir);
      const lattice = bodyParticles(fluidShape, dp, dim, fl.density, fl.relaxation);
      if (lattice.count === 0) throw new Error('the fluid region holds no particle at this dp');
      // Inlets create particles before the outlets remove as many: room for half as many again.
      fluid = open ? withCapacity(lattice, Math.ceil(lattice.count * 1.5) + 64) : lattice;
    }
    if (c.walls?.container) {
      const w = c.walls.container;
      walls.push(boxContainerWall(w.lower, w.upper, w.thickness, dp, dim, fl.density, w.open ?? []));
    }
    const margin = 2 * 2 * smoothingLength(dp);
    if (c.walls?.region) {
      const wallShape = await regionShape(c.walls.region, dim, baseDir);
      const wall = bodyParticles(wallShape, dp, dim, fl.density, c.walls.relaxation);
      regionWallNormals(wall, dp, { ...bounds([wall], dim, margin), periodic: [false, false, false] });
      walls.push(wall);
    }
    const wall = concat(dim, walls);
    const { lower, upper } = bounds([fluid, wall, ...solids.map(({ solid }) => solid.particles)], dim, margin);
    // Periodic axes span exactly the fluid region's extent.
    for (let a = 0; a < dim; a++) {
      if (c.periodic[a]) {
        lower[a] = fluidShape.lower[a]!;
        upper[a] = fluidShape.upper[a]!;
      }
    }
    const domain: Domain = { lower, upper, periodic: c.periodic };
    const options: FluidOptions = {
      dim,
      dp,
      rho0: fl.density,
      c0: fl.soundSpeed ?? 10 * fl.referenceVelocity,
      mu: fl.viscosity,
      gravity: c.gravity,
      uRef: fl.referenceVelocity,
      freeSurface: fl.freeSurface,
      transportCorrection: fl.freeSurface ? 0 : 0.2,
      domain,
      ...(fl.shearThinning ? { viscosity: fl.shearThinning === 'blood' ? BLOOD_CARREAU : fl.shearThinning } : {}),
      ...(c.backend ? { backend: c.backend } : {}),
      ...(wallMotion ? { wallMotion } : {}),
    };
    const coupled =
      solids.length > 0
        ? new FluidStructureInteraction(
            fluid,
            wall,
            solids.map(({ solid }) => solid),
            options,
          )
        : undefined;
    const sim = coupled?.fluid ?? new WeaklyCompressibleFluid(fluid, wall, options);
    // The walls that capture tracked particles: the static ones and, when coupled, the solids.
    const capturing = sim.wall;
    const trackers = c.particles.map((set) => {
      const p = new ParticleArrays(dim, set.positions.length);
      for (const [x, y, z] of set.positions) p.add(x, y, z, 0, set.density ?? fl.density);
      const tracker = new ParticleTracker(sim, p, {
        mode: set.mode,
        diameter: set.diameter,
        ...(set.density !== undefined ? { density: set.density } : {}),
        ...(set.drag !== undefined ? { drag: set.drag } : {}),
        gravity: c.gravity,
        capture: set.captureByWalls && capturing.count > 0 ? [capturing] : [],
      });
      return { name: set.name, tracker };
    });
    const openFluid = open
      ? new OpenBoundaryFluid(
          sim,
          fl.inlets.map((i) => ({ ...i, ...(i.length !== undefined ? { length: i.length } : {}) })),
          fl.outlets.map((o) => ({
            centre: o.centre,
            direction: o.direction,
            pressure: o.pressure,
            ...(o.radius !== undefined ? { radius: o.radius } : {}),
            ...(o.length !== undefined ? { length: o.length } : {}),
          })),
        )
      : undefined;
    const result = new CaseSimulation(coupled ?? openFluid ?? sim, trackers, solids);
    result.fluidName = fl.name;
    result.wallSurface = wallSurface;
    if (c.monitors) result.monitors = new CaseMonitors(c.monitors, result, options.viscosity ?? options.mu);
    return result;
  }
  const result = new CaseSimulation(undefined, [], solids);
  if (c.contact || c.solids.some((s) => s.expansion)) await addContact(result, c, baseDir);
  if (c.monitors) result.monitors = new CaseMonitors(c.monitors, result, 0);
  return result;
}

/**
 * Contact for a case of solids without a fluid: every solid touches the static walls (rigid; `walls.container`
 * and `walls.region`, normals as for a fluid's walls) and every other solid. A solid with `expansion` becomes a
 * `DeviceExpansion` whose anatomy is the walls and the other solids.
 */
async function addContact(sim: CaseSimulation, c: SphCase, baseDir: string): Promise<void> {
  const { dimension: dim, dp } = c;
  const settings = { friction: c.contact?.friction ?? 0, stiffness: c.contact?.stiffness ?? 1 };
  const walls: ParticleArrays[] = [];
  if (c.walls?.container) {
    const w = c.walls.container;
    walls.push(boxContainerWall(w.lower, w.upper, w.thickness, dp, dim, 1, w.open ?? []));
  }
  if (c.walls?.region) {
    const wall = bodyParticles(await regionShape(c.walls.region, dim, baseDir), dp, dim, 1, c.walls.relaxation);
    regionWallNormals(wall, dp, {
      ...bounds([wall], dim, 2 * 2 * smoothingLength(dp)),
      periodic: [false, false, false],
    });
    walls.push(wall);
  }
  let elasticAnatomy: ContactBody | null = null;
  if (c.walls?.vessel) {
    const v = c.walls.vessel;
    // An elastic wall may have its own, coarser spacing (`walls.vessel.elastic.dp`).
    const wallDp = v.elastic?.dp ?? dp;
    if (wallDp < dp)
      throw new Error('the elastic wall’s spacing (walls.vessel.elastic.dp) must not be below the case’s dp');
    const shell = vesselShell(await readMesh(v.file, baseDir), {
      dp: wallDp,
      scale: v.scale ?? 1e-3,
      offset: v.offset ?? [0, 0, 0],
      ...(v.wallLayers !== undefined ? { wallLayers: v.wallLayers } : {}),
      ...(v.axialRange ? { axialRange: v.axialRange } : {}),
    });
    if (v.elastic && v.axialRange) {
      const anatomy = elasticVessel(shell, v.elastic, v.axialRange, dim, wallDp, c.gravity);
      if (sim.solids.some((s) => s.name === ANATOMY)) throw new Error(`a solid may not be named '${ANATOMY}'`);
      sim.solids.push({ name: ANATOMY, solid: anatomy });
      elasticAnatomy = elasticContactBody(anatomy, wallDp);
    } else walls.push(shell);
  }
  const wallBody = walls.length > 0 ? rigidContactBody(concat(dim, walls), dp) : null;
  const k = c.solids.findIndex((s) => s.expansion);
  if (k >= 0) {
    const e = c.solids[k]!.expansion!;
    const others = sim.solids
      .filter((s, i) => i !== k && s.name !== ANATOMY)
      .map(({ solid }) => elasticContactBody(solid, dp));
    const anatomy = [...(wallBody ? [wallBody] : []), ...(elasticAnatomy ? [elasticAnatomy] : []), ...others].map(
      (body) => ({ body, contact: settings }),
    );
    sim.expansion = new DeviceExpansion({
      device: sim.solids[k]!.solid,
      dp,
      axis: { origin: e.origin, direction: e.direction },
      crimp: e.crimp,
      anatomy,
      expansionTime: e.expansionTime,
      ...(e.crimpTime !== undefined ? { crimpTime: e.crimpTime } : {}),
      ...(e.releaseTime !== undefined ? { releaseTime: e.releaseTime } : {}),
      ...(e.planes ? { planes: e.planes } : {}),
      ...(e.load ? { load: e.load } : {}),
    });
    sim.contact = sim.expansion.simulation;
    return;
  }
  const bodies: ContactBody[] = sim.solids.map(({ name, solid }) =>
    name === ANATOMY && elasticAnatomy ? elasticAnatomy : elasticContactBody(solid, dp),
  );
  const contacts: ContactSpec[] = [];
  if (wallBody) {
    bodies.push(wallBody);
    for (let a = 0; a < sim.solids.length; a++) contacts.push({ a, b: bodies.length - 1, ...settings });
  }
  for (let a = 0; a < sim.solids.length; a++) {
    for (let b = a + 1; b < sim.solids.length; b++) contacts.push({ a, b, ...settings });
  }
  sim.contact = new ContactSimulation(bodies, contacts);
}

/** Output name of an elastic vessel wall (`walls.vessel.elastic`). */
export const ANATOMY = 'anatomy';

/**
 * The vessel shell's particles as an elastic solid (`walls.vessel.elastic`): the tissue's density and material, held
 * fixed within `clamp` (default 2 dp) of both ends of the axial range; `dp` is the wall's own spacing.
 */
function elasticVessel(
  shell: ParticleArrays,
  e: NonNullable<NonNullable<NonNullable<SphCase['walls']>['vessel']>['elastic']>,
  range: { origin: readonly number[]; direction: readonly number[]; from: number; to: number },
  dim: 2 | 3,
  dp: number,
  gravity: readonly [number, number, number],
): ElasticSolid {
  for (let i = 0; i < shell.count; i++) {
    shell.rho[i] = e.material.density;
    shell.mass[i] = e.material.density * shell.vol[i]!;
  }
  const n = Math.hypot(...range.direction);
  const [ax, ay, az] = range.direction.map((v) => v / n) as [number, number, number];
  const [ox, oy, oz] = range.origin as [number, number, number];
  const clamp = e.clamp ?? 2 * dp;
  return new ElasticSolid(shell, {
    dim,
    dp,
    material: {
      model: e.material.model,
      rho0: e.material.density,
      youngsModulus: e.material.youngsModulus,
      poissonRatio: e.material.poissonRatio,
    },
    gravity,
    damping: e.damping ?? 0,
    fixed: (x, y, z) => {
      const s = (x - ox) * ax + (y - oy) * ay + (z - oz) * az;
      return s < range.from + clamp || s > range.to - clamp;
    },
  });
}

/** The header and one row of `expansion.csv` (SI units; diameters per plane). */
function expansionCsv(planes: number, r?: ExpansionRecord): string {
  if (!r) {
    const d = Array.from({ length: planes }, (_, k) => `diameter_${k + 1} [m],ovality_${k + 1} [-]`);
    return [
      'time [s]',
      'phase',
      ...d,
      'peak von Mises [Pa]',
      'peak contact pressure [Pa]',
      'contact force [N]',
      'axial shift [m]',
      'line load [N/m]',
    ].join(',');
  }
  const d = r.diameter.map((v, k) => `${v},${r.ovality[k]}`);
  return [r.time, r.phase, ...d, r.peakVonMises, r.peakContactPressure, r.contactForce, r.axialShift, r.lineLoad].join(
    ',',
  );
}

/** One solid of a case. */
async function buildSolid(
  s: SphCase['solids'][number],
  c: SphCase,
  baseDir: string,
): Promise<{ name: string; solid: ElasticSolid }> {
  const { dimension: dim, dp } = c;
  const shape = await regionShape(s.region, dim, baseDir);
  const particles = bodyParticles(shape, dp, dim, s.material.density, s.relaxation);
  if (particles.count === 0) throw new Error(`solid '${s.name}' holds no particle at this dp`);
  const v = s.initialVelocity ?? [0, 0, 0];
  particles.vx.fill(v[0], 0, particles.count);
  particles.vy.fill(v[1], 0, particles.count);
  particles.vz.fill(dim === 3 ? v[2] : 0, 0, particles.count);
  const fixed = s.fixed ? await regionShape(s.fixed, dim, baseDir) : undefined;
  const solid = new ElasticSolid(particles, {
    dim,
    dp,
    material: {
      model: s.material.model,
      rho0: s.material.density,
      youngsModulus: s.material.youngsModulus,
      poissonRatio: s.material.poissonRatio,
    },
    gravity: c.gravity,
    damping: s.damping ?? 0,
    ...(fixed ? { fixed: (x: number, y: number, z: number) => fixed.contains(x, y, z) } : {}),
  });
  return { name: s.name, solid };
}

/** Options of `runCase`. */
export interface RunCaseOptions {
  /** Folder of the case file (STL paths are relative to it). */
  caseDir: string;
  /** Result folder (created). */
  outDir: string;
  /** Continue from this checkpoint (of the same case) instead of from the start. */
  restart?: Uint8Array;
  /**
   * The simulation that wrote `restart` and has not moved since (built from the same case, another end time allowed):
   * it continues as it is, without building the case again (a run in segments on one thread). Ignored without
   * `restart` or when its time is not the checkpoint's.
   */
  simulation?: CaseSimulation;
  /** Also write each frame as VTP and/or CSV next to its binary file. */
  exports?: readonly ('vtp' | 'csv')[];
  /** Simulated time / end time after every step. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/**
 * Runs a validated case and writes its result folder: `manifest.json` (objects, columns with units, saved
 * timesteps), `<object>/<step>.bin` frames (`output.ts`), optional `.vtp` / `.csv` exports, and `checkpoint.bin`
 * (written at the end, also when cancelled, to restart from). A restart keeps the frames saved up to the
 * checkpoint's time and continues the manifest.
 */
export async function runCase(
  c: SphCase,
  o: RunCaseOptions,
): Promise<{ status: RunStatus; manifest: Manifest; sim: CaseSimulation }> {
  const checkpointTime = o.restart ? unpackArrays<{ time: number }>(o.restart).meta.time : null;
  const continued = checkpointTime !== null && o.simulation?.counters.time === checkpointTime;
  const sim = continued && o.simulation ? o.simulation : await buildCase(c, o.caseDir);
  const objects = sim.objects();
  let times: number[] = [];
  // With inlets and outlets the fluid's particle count changes: each timestep then lists its counts.
  const counts: Record<string, number>[] = [];
  if (o.restart) {
    if (!continued) sim.restore(o.restart);
    try {
      const previous = JSON.parse(await readFile(join(o.outDir, 'manifest.json'), 'utf8')) as Manifest;
      const kept = previous.timesteps.filter((t) => t.time <= sim.counters.time * (1 + 1e-12));
      times = kept.map((t) => t.time);
      counts.push(...kept.map((t) => t.particleCounts ?? {}));
    } catch {
      times = [];
      counts.length = 0;
    }
  }
  const particlesOf = (obj: CaseObject): { count: number; dim: 2 | 3 } => {
    const src = obj.output();
    return { count: src.count, dim: src.dim };
  };
  const manifestOf = (): Manifest =>
    buildManifest(
      objects.map((obj) => ({ name: obj.name, kind: obj.kind, particles: particlesOf(obj) })),
      times,
      sim.open ? counts : undefined,
    );
  for (const obj of objects) await mkdir(join(o.outDir, obj.name), { recursive: true });
  const monitorsFile = join(o.outDir, 'monitors.csv');
  let monitorLines: string[] = [];
  if (sim.monitors) {
    monitorLines = [sim.monitors.header()];
    if (o.restart) {
      // Keep the rows up to the checkpoint's time (the first column is the time in s).
      const previous = await readFile(monitorsFile, 'utf8').catch(() => '');
      const rows = previous
        .split('\n')
        .slice(1)
        .filter((l) => l !== '');
      monitorLines.push(...rows.filter((l) => Number(l.split(',')[0]) <= sim.counters.time * (1 + 1e-12)));
    }
  }
  const expansionFile = join(o.outDir, 'expansion.csv');
  let expansionLines: string[] = [];
  if (sim.expansion) {
    expansionLines = [expansionCsv(sim.expansion.planeCount)];
    if (o.restart) {
      const previous = await readFile(expansionFile, 'utf8').catch(() => '');
      const rows = previous
        .split('\n')
        .slice(1)
        .filter((l) => l !== '');
      expansionLines.push(...rows.filter((l) => Number(l.split(',')[0]) <= sim.counters.time * (1 + 1e-12)));
    }
  }
  const save = async (): Promise<void> => {
    if (sim.expansion) {
      expansionLines.push(expansionCsv(0, sim.expansion.current()));
      await writeFile(expansionFile, `${expansionLines.join('\n')}\n`);
    }
    if (sim.monitors) {
      monitorLines.push(sim.monitors.row());
      await writeFile(monitorsFile, `${monitorLines.join('\n')}\n`);
    }
    const step = times.length;
    times.push(sim.counters.time);
    counts.push(Object.fromEntries(objects.map((obj) => [obj.name, obj.output().count])));
    for (const obj of objects) {
      const frame = encodeFrame(obj.output(), obj.kind);
      const base = join(o.outDir, obj.name, String(step));
      await writeFile(`${base}.bin`, frame.bytes);
      if (o.exports?.includes('vtp'))
        await writeFile(`${base}.vtp`, frameToVtp(frame.bytes, frame.columns, sim.counters.time));
      if (o.exports?.includes('csv')) await writeFile(`${base}.csv`, frameToCsv(frame.bytes, frame.columns));
    }
    await writeFile(join(o.outDir, 'manifest.json'), JSON.stringify(manifestOf(), null, 2));
  };
  if (times.length === 0) await save();
  if (c.threads > 1) await sim.startThreads(c.threads);
  let status: RunStatus = 'completed';
  try {
    while (sim.counters.time < c.endTime * (1 - 1e-12)) {
      const next = Math.min(
        c.endTime,
        (Math.floor(sim.counters.time / c.outputInterval + 1e-9) + 1) * c.outputInterval,
      );
      status = await runAsync(sim, next, {
        ...(o.signal ? { signal: o.signal } : {}),
        onProgress: () => o.onProgress?.(Math.min(1, sim.counters.time / c.endTime)),
      });
      if (status === 'cancelled') break;
      await save();
    }
  } finally {
    await sim.stopThreads();
  }
  await writeFile(join(o.outDir, 'checkpoint.bin'), sim.checkpoint());
  await writeFile(join(o.outDir, 'manifest.json'), JSON.stringify(manifestOf(), null, 2));
  return { status, manifest: manifestOf(), sim };
}

/** Folder of a case file path. */
export function caseDirOf(casePath: string): string {
  return dirname(resolve(casePath));
}
