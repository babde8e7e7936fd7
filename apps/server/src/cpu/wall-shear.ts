import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { frameColumnsAt } from '@insilico/contracts';
import {
  frameLayout,
  outputLabel,
  outputUnit,
  readColumn,
  wallViscousTraction,
  type ColumnInfo,
  type Manifest,
  type CaseSimulation,
  type ObjectKind,
} from '@insilico/sph';

/** The object of a result that holds the wall's surface particles and their wall shear stress. */
export const WALL_OBJECT = 'wall';

/** A result's manifest as stored: the engine's objects and, for flow runs, the wall (`WALL_OBJECT`). */
export type ResultManifest = Omit<Manifest, 'objects'> & {
  objects: (Omit<Manifest['objects'][number], 'kind'> & { kind: ObjectKind | 'wall' })[];
};

const column = (name: string, type: ColumnInfo['type'], components: number): ColumnInfo => ({
  name,
  label: outputLabel(name),
  unit: name === 'position' ? 'mm' : name === 'particle_id' ? '' : outputUnit(name),
  type,
  components,
  offset: 0,
  byteLength: 0,
});

/** The wall's frame: the surface particles' ids, positions (mm) and wall shear stress magnitude (Pa). */
export function wallColumns(count: number): ColumnInfo[] {
  return frameColumnsAt(
    [column('particle_id', 'int32', 1), column('position', 'float32', 3), column('wall_shear_stress', 'float32', 1)],
    count,
  );
}

/**
 * Wall shear stress on every surface particle of the wall, per saved timestep from `from` to `last` (issue 16 item
 * 5: a distribution, not only the mean and maximum that monitors.csv keeps). The engine saves the fluid's state, not
 * the wall's traction, so each saved fluid frame is put back into the run's own fluid once the run has ended (its
 * checkpoint written: the same walls, normals, masses and surface) and the engine's `wallViscousTraction` — the
 * function behind the monitors' wall shear stress — runs on it. Writes `<outDir>/wall/<step>.bin` (`wallColumns`) and
 * returns the wall's object for the manifest, or null when the case has no fluid with walls. In the CPU-pool thread of
 * the run; it overwrites the simulation's fluid state.
 */
export async function writeWallShearStress(
  sim: CaseSimulation,
  outDir: string,
  manifest: Manifest,
  from: number,
  last: number,
): Promise<{ object: ResultManifest['objects'][number]; counts: number[] } | null> {
  const blood = manifest.objects.find((o) => o.kind === 'fluid');
  const fluid = sim.fluid;
  if (!blood || !fluid || fluid.wall.count === 0) return null;
  const f = fluid.fluid;
  const wall = fluid.wall;
  // Masses by particle id at the run's end; a particle gone by then had the mass every particle has (the inlet's
  // particles copy a buffer particle's).
  const massOf = new Map<number, number>();
  for (let i = 0; i < f.count; i++) massOf.set(f.id[i]!, f.mass[i]!);
  const fallbackMass = f.count > 0 ? f.mass[0]! : 0;
  await mkdir(join(outDir, WALL_OBJECT), { recursive: true });
  const counts: number[] = [];
  for (let step = from; step <= last; step++) {
    const count = manifest.timesteps[step]?.particleCounts?.[blood.name] ?? blood.particleCount;
    if (count > f.capacity) throw new Error(`the saved fluid frame ${step} holds more particles than the case`);
    const bytes = new Uint8Array(await readFile(join(outDir, blood.name, `${step}.bin`)));
    const layout = new Map(frameLayout(count, 3, 'fluid').map((c) => [c.name, c]));
    const id = readColumn(bytes, layout.get('particle_id')!);
    const position = readColumn(bytes, layout.get('position')!);
    const velocity = readColumn(bytes, layout.get('velocity')!);
    const density = readColumn(bytes, layout.get('density')!);
    f.count = count;
    for (let i = 0; i < count; i++) {
      f.id[i] = id[i]!;
      f.x[i] = position[i]! / 1000;
      f.y[i] = position[count + i]! / 1000;
      f.z[i] = position[2 * count + i]! / 1000;
      f.vx[i] = velocity[i]!;
      f.vy[i] = velocity[count + i]!;
      f.vz[i] = velocity[2 * count + i]!;
      f.rho[i] = density[i]!;
      f.mass[i] = massOf.get(id[i]!) ?? fallbackMass;
      f.vol[i] = f.mass[i]! / f.rho[i]!;
    }
    fluid.updateNeighbours();
    // A shear-thinning blood's per-particle viscosity comes from the viscous pass at these velocities.
    if (fluid.options.viscosity) fluid.viscousAndBodyForce();
    const t = wallViscousTraction(fluid, sim.wallSurface ? { surfaceDistance: sim.wallSurface } : {});
    const rows: number[] = [];
    for (let j = 0; j < wall.count; j++) if (t.surface[j]) rows.push(j);
    const n = rows.length;
    const columns = wallColumns(n);
    const out = new Uint8Array(columns.at(-1)!.offset + columns.at(-1)!.byteLength);
    const view = new DataView(out.buffer);
    const [ids, positions, stress] = columns.map((c) => c.offset) as [number, number, number];
    rows.forEach((j, k) => {
      view.setInt32(ids + 4 * k, wall.id[j]!, true);
      view.setFloat32(positions + 4 * k, wall.x[j]! * 1000, true);
      view.setFloat32(positions + 4 * (n + k), wall.y[j]! * 1000, true);
      view.setFloat32(positions + 4 * (2 * n + k), wall.z[j]! * 1000, true);
      view.setFloat32(stress + 4 * k, t.magnitude[j]!, true);
    });
    await writeFile(join(outDir, WALL_OBJECT, `${step}.bin`), out);
    counts.push(n);
  }
  const n = counts.at(-1) ?? 0;
  return {
    object: {
      name: WALL_OBJECT,
      kind: 'wall',
      particleCount: n,
      frameFile: `${WALL_OBJECT}/{step}.bin`,
      columns: wallColumns(n),
    },
    counts,
  };
}
