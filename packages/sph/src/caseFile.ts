import { z } from 'zod';
import { waveformMinimum } from './openBoundary';

/**
 * The case file of `npm run sph -- <case.json>`: geometry, materials, boundary conditions, end time, output
 * interval and threads, in SI units (STL coordinates are scaled, by default from mm). Validated with zod; errors
 * name the path of each bad entry.
 */

const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const positive = z.number().positive();

const boxGeometry = z.object({ type: z.literal('box'), lower: vec3, upper: vec3 });
const ballGeometry = z.object({ type: z.literal('ball'), centre: vec3, radius: positive });
const stlGeometry = z.object({
  type: z.literal('stl'),
  /** Path of a closed binary or ASCII STL, relative to the case file. */
  file: z.string().min(1),
  /** Factor from STL units to m (default 0.001: mm). */
  scale: positive.optional(),
  offset: vec3.optional(),
});

/** A shape: box, disc/ball or closed STL mesh. */
export const geometrySchema = z.discriminatedUnion('type', [boxGeometry, ballGeometry, stlGeometry]);
export type Geometry = z.infer<typeof geometrySchema>;

/** A body's region: the union of `shapes` minus the union of `subtract`. */
const regionSchema = z.object({
  shapes: z.array(geometrySchema).min(1, 'give at least one shape'),
  subtract: z.array(geometrySchema).optional(),
});
export type Region = z.infer<typeof regionSchema>;

/**
 * Optional particle relaxation of a body after lattice filling (SPHinXsys's relaxation, `relaxation.ts`): the particles
 * become uniform up to the body's surface. `{}` relaxes with the default number of steps.
 */
const relaxationSchema = z.object({ steps: z.number().int().min(1).max(100_000).default(500) });

const side = z.enum(['x-', 'x+', 'y-', 'y+', 'z-', 'z+']);

const materialSchema = z.object({
  model: z.enum(['linear_elastic', 'neo_hookean']),
  density: positive,
  youngsModulus: positive,
  poissonRatio: z.number().gt(-1).lt(0.5),
});

/**
 * The vessel shell as an elastic solid instead of a rigid wall (docs/decisions/solid-contact-pressure.md): a thin
 * elastic layer of the given material (tissue), `wallLayers` of its spacing thick, held fixed within `clamp` m of both
 * ends of its `axialRange` (required: the band must be anchored somewhere, and a free band would be carried off by the
 * device's load through friction), with mass damping `damping` (1/s) for a quasi-static expansion. The shell becomes the
 * case's output object `anatomy` (a solid: displacement, von Mises stress and strain).
 */
const elasticWallSchema = z.object({
  material: materialSchema,
  damping: z.number().min(0).optional(),
  /** Length held fixed at each end of the axial range, m (default 2 × the wall's spacing). */
  clamp: positive.optional(),
  /**
   * The wall's own particle spacing, m (default the case's dp; not below it): the shell's lattice and its elastic
   * solid at this spacing, `wallLayers` of it thick. A wall coarser than the device costs fewer particles; the
   * contact between the two takes the mean spacing's kernel and offset (docs/decisions/solid-contact-pressure.md).
   */
  dp: positive.optional(),
});

/**
 * The surface shell of a closed STL mesh as a rigid wall (`vesselShell` in `vessel.ts`): the anatomy a device expands
 * into in a solid case. `axialRange` keeps the shell between two planes across an axis (m along `direction`).
 */
const wallVesselSchema = z
  .object({
    /** Path of a closed binary or ASCII STL, relative to the case file. */
    file: z.string().min(1),
    /** Factor from STL units to m (default 0.001: mm). */
    scale: positive.optional(),
    offset: vec3.optional(),
    /** Wall particle layers (default 3). */
    wallLayers: z.number().int().min(3).max(16).optional(),
    axialRange: z
      .object({
        origin: vec3,
        direction: vec3.refine((v) => Math.hypot(...v) > 0, 'the direction must not be zero'),
        from: z.number(),
        to: z.number(),
      })
      .refine((r) => r.to >= r.from, { message: 'to must not be below from', path: ['to'] })
      .optional(),
    /** An elastic anatomy instead of a rigid one (needs `axialRange`). */
    elastic: elasticWallSchema.optional(),
  })
  .refine((v) => !v.elastic || v.axialRange, {
    message: 'an elastic vessel wall needs an axialRange (its ends are held fixed)',
    path: ['elastic'],
  });

/** Static walls: a box container (inward normals) and/or wall particles filling a region (normals computed). */
const wallsSchema = z.object({
  container: z.object({ lower: vec3, upper: vec3, thickness: positive, open: z.array(side).optional() }).optional(),
  region: regionSchema.optional(),
  /** A vessel's shell from a closed mesh (solid cases: contact and expansion; a fluid's vessel is `fluid.vessel`). */
  vessel: wallVesselSchema.optional(),
  /** Relax the particles of `region` (the container's lattice is left as is). */
  relaxation: relaxationSchema.optional(),
});

/** A value constant in time, or a table of [time s, value] rows (times rising), optionally periodic. */
const waveformSchema = z.union([
  z.number(),
  z
    .object({
      table: z.array(z.tuple([z.number(), z.number()])).min(1, 'give at least one [time, value] row'),
      /** Period, s: the table is read at t mod period. */
      period: positive.optional(),
    })
    .superRefine((w, ctx) => {
      for (let k = 1; k < w.table.length; k++) {
        if (w.table[k]![0] <= w.table[k - 1]![0]) {
          ctx.addIssue({ code: 'custom', path: ['table', k], message: 'times must rise strictly' });
          return;
        }
      }
    }),
]);

const direction = vec3.refine((v) => Math.hypot(...v) > 0, 'the direction must not be zero');

/**
 * A velocity inlet: the fluid particles within `length` upstream of the plane (through `centre`, normal `direction`
 * into the fluid) and within `radius` of the centre become its buffer (`openBoundary.ts`).
 */
const inletSchema = z.object({
  centre: vec3,
  direction,
  radius: positive,
  /** Buffer length, m (default 4 dp; at least 2.6 dp). */
  length: positive.optional(),
  profile: z.enum(['plug', 'parabolic']).default('parabolic'),
  /** Volume flow rate, m³/s (m²/s in 2D), never negative (the emitters cannot move upstream). */
  flowRate: waveformSchema.refine(
    (w) => waveformMinimum(w) >= 0,
    "an inlet's flow rate must not be negative: a velocity inlet only lets fluid in (fluid leaves through a pressure outlet)",
  ),
});

/** A pressure outlet: particles past the plane (normal `direction` out of the fluid) carry `pressure`, Pa. */
const outletSchema = z.object({
  centre: vec3,
  direction,
  radius: positive.optional(),
  length: positive.optional(),
  pressure: waveformSchema,
});

/** Carreau–Yasuda parameters (SI), or 'blood' for Cho & Kensey's Carreau blood (`viscosity.ts`). */
const shearThinningSchema = z.union([
  z.literal('blood'),
  z.object({
    model: z.literal('carreau_yasuda'),
    mu0: positive,
    muInf: z.number().min(0),
    lambda: z.number().min(0),
    n: z.number().gt(0).max(1),
    a: positive,
  }),
]);

/**
 * A vessel or blood pool from a closed STL mesh (`vessel.ts`): its inside is the fluid, its surface shell the wall,
 * both cut at the inlet and outlet planes (each needs its `radius`); replaces the fluid's `region`.
 */
const vesselSchema = z.object({
  /** Path of a closed binary or ASCII STL, relative to the case file. */
  file: z.string().min(1),
  /** Factor from STL units to m (default 0.001: mm). */
  scale: positive.optional(),
  offset: vec3.optional(),
  /** Wall particle layers (default 4). */
  wallLayers: z.number().int().min(3).max(16).optional(),
  /**
   * The wall: 'static' (default), or 'cine': moving with the heart cycle through the frames of `cine`
   * (`movingWall.ts`; `file` is frame 0, at time 0, and the lumen is filled from it).
   */
  wallMotion: z.enum(['static', 'cine']).default('static'),
  /** The frames after `file` for `wallMotion: 'cine'` (the patient's cine frames), scaled and shifted like `file`. */
  cine: z
    .object({
      frames: z
        .array(z.object({ file: z.string().min(1), time: positive }))
        .min(1, 'give at least one frame after the mesh'),
      /** Period of the heart cycle, s. */
      period: positive,
      interpolation: z.enum(['linear', 'cubic']).default('cubic'),
    })
    .superRefine((c, ctx) => {
      c.frames.forEach((f, k) => {
        if (k > 0 && f.time <= c.frames[k - 1]!.time) {
          ctx.addIssue({ code: 'custom', path: ['frames', k, 'time'], message: 'times must rise strictly' });
        }
        if (f.time >= c.period) {
          ctx.addIssue({ code: 'custom', path: ['frames', k, 'time'], message: 'must lie before the period' });
        }
      });
    })
    .optional(),
});

const fluidSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, _ and - only')
    .default('fluid'),
  /** Reference density, kg/m³. */
  density: positive,
  /** Dynamic viscosity, Pa·s. */
  viscosity: z.number().min(0),
  /** Largest expected flow speed, m/s (sets the advection step and, ×10, the sound speed). */
  referenceVelocity: positive,
  /** Artificial sound speed, m/s (default 10 × referenceVelocity). */
  soundSpeed: positive.optional(),
  /** Free-surface flow (default true); false for internal flows, which also use transport-velocity correction. */
  freeSurface: z.boolean().default(true),
  /** Shear-thinning viscosity instead of the constant `viscosity` (which is then ignored). */
  shearThinning: shearThinningSchema.optional(),
  /** The fluid's region (or give `vessel`). */
  region: regionSchema.optional(),
  /** The fluid and its wall from a closed mesh, instead of `region`. */
  vessel: vesselSchema.optional(),
  relaxation: relaxationSchema.optional(),
  /** Velocity inlets (the region must include their buffers). */
  inlets: z.array(inletSchema).default([]),
  /** Pressure outlets. */
  outlets: z.array(outletSchema).default([]),
});

const solidSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, _ and - only'),
  material: materialSchema,
  region: regionSchema,
  relaxation: relaxationSchema.optional(),
  /** Particles of the body inside this region are held fixed (clamped). */
  fixed: regionSchema.optional(),
  initialVelocity: vec3.optional(),
  /** Mass-proportional damping, 1/s (for quasi-static loading). */
  damping: z.number().min(0).optional(),
  /**
   * Expand the solid as a crimped device (`expansion.ts`): its region is the nominal (expanded) geometry; it starts
   * at a radial scale `crimp` about the axis (or, with `crimpTime`, at its nominal shape, and a sheath crimps it to
   * that scale over `crimpTime` s), a sheath opens over `expansionTime` s, then releases it for `releaseTime` s
   * (default half the expansion time). It touches the case's walls and other solids (`contact`; not while crimped).
   * The diameter is measured at the axial positions `planes` (m from `origin` along `direction`; default the
   * middle). Writes `expansion.csv` at every saved timestep.
   */
  expansion: z
    .object({
      origin: vec3,
      direction: vec3.refine((v) => Math.hypot(...v) > 0, 'the direction must not be zero').default([0, 0, 1]),
      crimp: z.number().gt(0).max(1),
      /** Duration of the crimping by the sheath before the expansion, s (default none: the geometric crimp). */
      crimpTime: positive.optional(),
      expansionTime: positive,
      releaseTime: positive.optional(),
      planes: z.array(z.number()).optional(),
      /**
       * A uniform acceleration of the device after the release, m/s² (a pressure load on the device as a body
       * force), ramped from zero over the first half of the release time.
       */
      load: vec3.optional(),
    })
    .optional(),
});

/**
 * Contact of the solids with the static walls and with each other (`contact.ts`, solids without a fluid): Coulomb
 * friction coefficient and the contact stiffness as a multiple of the bulk modulus (default 1).
 */
const contactSchema = z.object({
  friction: z.number().min(0).default(0),
  stiffness: positive.default(1),
});

const particlesSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, _ and - only'),
  mode: z.enum(['passive', 'inertial']),
  /** Diameter, m. */
  diameter: positive,
  /** Density, kg/m³ (inertial). */
  density: positive.optional(),
  drag: z.enum(['stokes', 'schiller_naumann']).optional(),
  /** Release points, m. */
  positions: z.array(vec3).min(1, 'give at least one release point'),
  /** Whether the walls capture the particles on contact (default true). */
  captureByWalls: z.boolean().default(true),
});

/** A named plane section for monitors (normal: the positive flow direction; radius: limit about the centre). */
const monitorPlaneSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/, 'use letters, digits, _ and - only'),
  centre: vec3,
  normal: direction,
  radius: positive.optional(),
});

/**
 * Derived outputs written at every saved timestep to `monitors.csv` (`monitors.ts`): flow rate (L/min) and mean
 * pressure (Pa, mmHg) on each plane, pressure drops between planes, wall shear stress over the walls (mean and
 * largest, Pa), the residence time of the fluid crossing each plane (s; needs inlets), capture per tracked set (%).
 */
const monitorsSchema = z.object({
  planes: z.array(monitorPlaneSchema).default([]),
  /** Pairs of plane names [upstream, downstream]: mean pressure upstream minus downstream. */
  pressureDrops: z.array(z.tuple([z.string(), z.string()])).default([]),
  wallShearStress: z.boolean().default(false),
  residenceTime: z.boolean().default(false),
});

/** The whole case. */
export const caseSchema = z
  .object({
    dimension: z.union([z.literal(2), z.literal(3)]),
    /** Particle spacing, m. */
    dp: positive,
    /** Simulated end time, s. */
    endTime: positive,
    /** Interval between saved timesteps, s. */
    outputInterval: positive,
    /** Threads for the fluid (default 1). */
    threads: z.number().int().min(1).max(64).default(1),
    /** Code of the fluid's hot passes: 'ts' (TypeScript reference) or 'wasm' (WebAssembly SIMD); default SPH_BACKEND or 'ts'. */
    backend: z.enum(['ts', 'wasm']).optional(),
    gravity: vec3.default([0, 0, 0]),
    /** Periodic axes of the fluid domain (x, y, z). */
    periodic: z.tuple([z.boolean(), z.boolean(), z.boolean()]).default([false, false, false]),
    fluid: fluidSchema.optional(),
    walls: wallsSchema.optional(),
    solids: z.array(solidSchema).default([]),
    /** Contact between the solids and the walls (solids without a fluid). */
    contact: contactSchema.optional(),
    particles: z.array(particlesSchema).default([]),
    monitors: monitorsSchema.optional(),
  })
  .superRefine((c, ctx) => {
    if (!c.fluid && c.solids.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'the case needs a fluid or at least one solid' });
    }
    if (c.fluid && c.fluid.inlets.length + c.fluid.outlets.length > 0) {
      if (c.fluid.freeSurface) {
        ctx.addIssue({
          code: 'custom',
          path: ['fluid', 'freeSurface'],
          message: 'inlets and outlets need an internal flow (freeSurface: false)',
        });
      }
      if (c.solids.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['fluid'],
          message: 'inlets and outlets cannot be combined with solids yet',
        });
      }
      if (c.periodic.some((p) => p)) {
        ctx.addIssue({
          code: 'custom',
          path: ['periodic'],
          message: 'inlets and outlets cannot be combined with periodic axes',
        });
      }
    }
    if (c.fluid && !c.fluid.region === !c.fluid.vessel) {
      ctx.addIssue({ code: 'custom', path: ['fluid'], message: 'give either a region or a vessel' });
    }
    if (c.fluid?.vessel) {
      const v = c.fluid;
      if (c.dimension !== 3) ctx.addIssue({ code: 'custom', path: ['fluid', 'vessel'], message: 'needs a 3D case' });
      if (v.inlets.length + v.outlets.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['fluid', 'vessel'], message: 'needs at least one inlet or outlet' });
      }
      v.outlets.forEach((o, k) => {
        if (o.radius === undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['fluid', 'outlets', k, 'radius'],
            message: 'a vessel outlet needs the radius of its section',
          });
        }
      });
      const wall = c.fluid.vessel;
      if (wall.wallMotion === 'cine' && !wall.cine) {
        ctx.addIssue({
          code: 'custom',
          path: ['fluid', 'vessel', 'cine'],
          message: 'a moving wall needs its frames (cine.frames and cine.period)',
        });
      }
      if (wall.wallMotion === 'static' && wall.cine) {
        ctx.addIssue({
          code: 'custom',
          path: ['fluid', 'vessel', 'wallMotion'],
          message: "set wallMotion to 'cine' to move the wall through the frames (the default is a static wall)",
        });
      }
      if (wall.wallMotion === 'cine' && c.solids.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['fluid', 'vessel', 'wallMotion'],
          message: 'a moving vessel wall cannot be combined with solids yet',
        });
      }
      if (v.relaxation) {
        ctx.addIssue({
          code: 'custom',
          path: ['fluid', 'relaxation'],
          message: 'relaxation is not available for a vessel (its fluid and wall share one lattice)',
        });
      }
    }
    if (c.monitors) {
      const m = c.monitors;
      const names = m.planes.map((p) => p.name);
      if (!c.fluid && (m.planes.length > 0 || m.wallShearStress || m.residenceTime)) {
        ctx.addIssue({ code: 'custom', path: ['monitors'], message: 'plane and wall monitors need a fluid' });
      }
      names.forEach((n, k) => {
        if (names.indexOf(n) !== k) {
          ctx.addIssue({ code: 'custom', path: ['monitors', 'planes', k, 'name'], message: `'${n}' is used twice` });
        }
      });
      m.pressureDrops.forEach((pair, k) =>
        pair.forEach((n, e) => {
          if (!names.includes(n)) {
            ctx.addIssue({ code: 'custom', path: ['monitors', 'pressureDrops', k, e], message: `no plane '${n}'` });
          }
        }),
      );
      if (m.residenceTime && (c.fluid?.inlets.length ?? 0) === 0) {
        ctx.addIssue({ code: 'custom', path: ['monitors', 'residenceTime'], message: 'needs at least one inlet' });
      }
      if (m.residenceTime && m.planes.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['monitors', 'residenceTime'], message: 'needs at least one plane' });
      }
    }
    if (c.walls?.vessel && (c.fluid || c.dimension !== 3)) {
      ctx.addIssue({
        code: 'custom',
        path: ['walls', 'vessel'],
        message: 'a vessel shell is for 3D cases of solids (a fluid takes its vessel as fluid.vessel)',
      });
    }
    const expanded = c.solids.filter((s) => s.expansion);
    if (c.fluid && (c.contact || expanded.length > 0)) {
      ctx.addIssue({
        code: 'custom',
        path: [c.contact ? 'contact' : 'solids'],
        message: 'contact and device expansion are for solids without a fluid',
      });
    }
    if (expanded.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['solids'], message: 'only one solid can be expanded' });
    }
    if (!c.fluid && c.particles.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['particles'], message: 'tracked particles need a fluid' });
    }
    if (c.outputInterval > c.endTime) {
      ctx.addIssue({ code: 'custom', path: ['outputInterval'], message: 'must not exceed endTime' });
    }
    const names = [c.fluid?.name ?? 'fluid', ...c.solids.map((s) => s.name), ...c.particles.map((p) => p.name)];
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    if (duplicate) ctx.addIssue({ code: 'custom', message: `object name '${duplicate}' is used twice` });
  });

export type SphCase = z.infer<typeof caseSchema>;

/** A case file that does not validate; `message` lists every problem with its path. */
export class CaseError extends Error {
  override readonly name = 'CaseError';
}

/** Parses and validates case-file text; throws a CaseError that lists every problem. */
export function parseCase(text: string): SphCase {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CaseError(`the case file is not valid JSON: ${(e as Error).message}`);
  }
  const result = caseSchema.safeParse(json);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(case)'}: ${i.message}`);
    throw new CaseError(`the case file is not valid:\n${lines.join('\n')}`);
  }
  return result.data;
}
