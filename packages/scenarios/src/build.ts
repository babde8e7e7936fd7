import type { MeshPhaseInput } from '@insilico/anatomy';
import { simulationHelpMessage } from '@insilico/contracts';
import { analyseTopology, surfaceArea_mm2, writeBinaryStl, type TriangleMesh, type Vec3 } from '@insilico/mesh';
import { BLOOD_CARREAU, caseSchema, meshShape, type SphCase } from '@insilico/sph';
import { deviceExtent, placedMesh, type PlacedDevice } from './device';
import { ScenarioError } from './errors';
import { sexOf, type ScenarioPatient } from './patient';
import { inflowOf } from './inflow';
import {
  resolveParameters,
  type ParameterIssue,
  type Resolution,
  type SimulationKind,
  type SimulationParameters,
} from './parameters';
import { add, dot, onAxis, scale, simulatedRegion, sub, type RegionPlane, type SimulatedRegion } from './region';
import { vesselParticleCounter } from './flowParticles';
import {
  FLOW_SECONDS_PER_PARTICLE_STEP,
  flowRunSeconds,
  flowSteps,
  flowWork,
  solidRunSeconds,
  type EngineBackend,
} from './runTime';

/** Version of the case building; stored with every simulation so a result says how its case was made. */
export const SCENARIO_VERSION = 'scenarios-5';

/** The most particles a case may have (memory: about 1 KB per particle with neighbour lists; and run time). */
export const PARTICLE_CAP = 400_000;

/** What a room gives the builder. */
export interface ScenarioInput {
  /** A virtual patient, or a patient of the user's own imaging (its surfaces are of its one phase: `phase` null). */
  readonly patient: ScenarioPatient;
  readonly phase: MeshPhaseInput | null;
  readonly kind: SimulationKind;
  readonly resolution: Resolution;
  /** As the person sent them (checked here): missing ones take the patient's defaults. */
  readonly parameters: Record<string, unknown>;
  /** The devices placed in the room (the first is the simulated device of the solid kind). */
  readonly devices: readonly PlacedDevice[];
  /** Engine threads (default 1). */
  readonly threads?: number;
  /** Particle cap (default PARTICLE_CAP). */
  readonly particleCap?: number;
}

/** Particle count, steps and run time expected before a run (shown before starting). */
export interface Estimate {
  /** Particle spacing, mm. */
  readonly dp_mm: number;
  readonly particles: number;
  /** Simulated time, s. */
  readonly endTime_s: number;
  /** Time steps of the engine (acoustic steps of a fluid, solid steps of a solid). */
  readonly steps: number;
  /** Estimated run time on the case's engine threads (one unless asked), s. */
  readonly seconds: number;
}

/** A built case: the engine's case file, the files it names (STL, mm), and what the set-up shows. */
export interface BuiltScenario {
  readonly version: string;
  readonly kind: SimulationKind;
  readonly resolution: Resolution;
  readonly parameters: SimulationParameters;
  /** Validated by the engine's schema; STL paths are keys of `files`. */
  readonly engineCase: SphCase;
  readonly files: Readonly<Record<string, Uint8Array>>;
  readonly estimate: Estimate;
  /** Inlet and outlet planes (mm, patient frame) of the fluid kinds, to draw in the scene. */
  readonly planes: { readonly inlet: RegionPlane; readonly outlet: RegionPlane } | null;
}

export { ScenarioError };

/** Particle spacing of the flow kinds as a fraction of the LVOT diameter. */
const FLOW_DIVISIONS: Record<Resolution, number> = { test: 8, coarse: 10, standard: 16, fine: 24 };
/** The flow templates' engine backend: the WebAssembly SIMD kernels (docs/decisions/simulation-run-estimate.md). */
const FLOW_BACKEND: EngineBackend = 'wasm';
/** The run time a coarse flow case may be estimated at on one engine thread, s: 4 minutes, 20 % under the 5 of issue 16. */
const COARSE_FLOW_SECONDS = 240;
/**
 * The most work (particles × acoustic steps, as the estimate counts them) of a coarse flow case, the work the run-time
 * model does in COARSE_FLOW_SECONDS: a patient whose LVOT/10 spacing would need more gets the smallest spacing that
 * stays within it, so the coarse template finishes within 5 minutes on the product's 2-core machine for every patient
 * (docs/decisions/simulation-run-estimate.md).
 */
export const COARSE_FLOW_MAX_WORK = COARSE_FLOW_SECONDS / FLOW_SECONDS_PER_PARTICLE_STEP[FLOW_BACKEND];
/**
 * The largest flow spacing, mm: the inlet buffer (2.8 dp) and its plane must fit in the modelled LVOT (10 mm below
 * the annulus) with the plane below the annulus.
 */
const MAX_FLOW_DP_MM = 2.5;
const INLET_BUFFER_DP = 2.8;
/** The outlet buffer's length in dp: the engine's default (`vesselFromMesh`), which the case leaves in place. */
const OUTLET_BUFFER_DP = 4;
/** Target particle count of the device in the solid kind. */
const SOLID_PARTICLES: Record<Resolution, number> = { test: 150, coarse: 1500, standard: 6000, fine: 20000 };
/** Saved timesteps per heart cycle (flow) or per run (solid). */
const FRAMES: Record<Resolution, number> = { test: 3, coarse: 25, standard: 50, fine: 100 };
/** Simulated time of the test resolution: a handful of steps. */
const TEST_END_TIME_S = 0.003;
const TEST_SOLID_STEPS = 300;
/** Wall layers of the vessel shell the device touches (the kernel reaches 2.6 dp). */
const SHELL_LAYERS = 3;
/** Wall layers of the vessel (the engine's default). */
const WALL_LAYERS = 4;
const MMHG = 133.322;

/** Builds the engine case of a room; throws ScenarioError on input a person must correct. */
export function buildScenario(input: ScenarioInput): BuiltScenario {
  const { parameters, issues } = resolveParameters(input.kind, input.patient, input.parameters);
  if (input.kind === 'solid' && input.devices.length === 0) {
    issues.push({
      key: 'device',
      message: 'This room has no device: place a device in the room before setting up a solid simulation.',
    });
  }
  if (input.kind === 'solid' && parameters.material === 'custom') {
    for (const key of ['youngsModulus_GPa', 'poissonRatio', 'materialDensity_kg_m3'] as const) {
      if (!(key in input.parameters)) issues.push({ key, message: 'A custom material needs all three of its values.' });
    }
  }
  if (issues.length) throw new ScenarioError(issues);
  const region = simulatedRegion(input.patient, input.phase);
  const devices = input.devices.map((d) => ({ device: d, mesh: placedMesh(d) }));
  checkDevicesInside(region, devices);
  const built =
    input.kind === 'solid'
      ? solidCase(input, parameters, devices[0]!.mesh)
      : flowCase(
          input,
          parameters,
          region,
          devices.map((d) => d.mesh),
        );
  const cap = input.particleCap ?? PARTICLE_CAP;
  if (built.estimate.particles > cap) {
    throw new ScenarioError([
      {
        key: 'resolution',
        message: `The ${input.resolution} resolution needs about ${built.estimate.particles.toLocaleString('en-US')} particles, more than the ${cap.toLocaleString('en-US')} a simulation may have. Choose a coarser resolution.`,
      },
    ]);
  }
  // The engine's own schema is the last word: a case it refuses is a bug here, not a person's error.
  const engineCase = caseSchema.parse(built.engineCase);
  return {
    version: SCENARIO_VERSION,
    kind: input.kind,
    resolution: input.resolution,
    parameters,
    engineCase,
    files: built.files,
    estimate: built.estimate,
    planes: built.planes,
  };
}

interface Built {
  engineCase: unknown;
  files: Record<string, Uint8Array>;
  estimate: Estimate;
  planes: BuiltScenario['planes'];
}

/**
 * Refuses devices the engine cannot fill with particles (an open surface such as a stent's strut surface: inside and
 * outside are undefined) and devices whose centre lies outside the simulated region's lumen.
 */
function checkDevicesInside(region: SimulatedRegion, devices: readonly { device: PlacedDevice; mesh: TriangleMesh }[]) {
  const lumen = meshShape(region.mesh, { scale: 1 });
  const issues: ParameterIssue[] = [];
  for (const { device, mesh } of devices) {
    if (!analyseTopology(mesh).closed) {
      issues.push({
        key: 'device',
        message: `The device ${device.name} is an open surface: a simulation needs a closed (watertight) model of it. ${simulationHelpMessage}`,
      });
      continue;
    }
    const { min, max } = deviceExtent(mesh);
    const centre: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
    if (!lumen.contains(centre[0], centre[1], centre[2])) {
      issues.push({
        key: 'device',
        message: `The device ${device.name} lies outside the simulated anatomy (LVOT, aortic root and ascending aorta). Move it into the aortic root and save the room first.`,
      });
    }
  }
  if (issues.length) throw new ScenarioError(issues);
}

/** Heights along the root axis (mm above the annulus) spanned by a mesh. */
function axialSpan(region: SimulatedRegion, mesh: TriangleMesh): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  const p = mesh.positions;
  for (let i = 0; i < p.length; i += 3) {
    const h = dot(sub([p[i]!, p[i + 1]!, p[i + 2]!], region.annulus), region.axis);
    lo = Math.min(lo, h);
    hi = Math.max(hi, h);
  }
  return [lo, hi];
}

const mm = (v: Vec3): [number, number, number] => [v[0] / 1000, v[1] / 1000, v[2] / 1000];

/**
 * The fluid and particle kinds: blood through the aortic root mesh (a vessel with a velocity inlet in the LVOT and a
 * pressure outlet in the ascending aorta), each device a rigid static wall: a hole of the vessel (`withHoles`). The
 * engine cannot yet couple a solid with open boundaries (docs/decisions/simulations.md).
 */
function flowCase(
  input: ScenarioInput,
  p: SimulationParameters,
  region: SimulatedRegion,
  deviceMeshes: readonly TriangleMesh[],
): Built {
  const inflow = inflowOf(p.strokeVolume_mL!, p.heartRate_bpm!, sexOf(input.patient));
  const lvotArea = Math.PI * (region.lvotDiameter_mm / 2000) ** 2;
  const uRef = Math.max(0.5, (1.5 * inflow.peak) / lvotArea);
  const endTime = input.resolution === 'test' ? TEST_END_TIME_S : p.cycles! * inflow.period;
  // The blood between the buffers' ends and the vessel's wall shell of WALL_LAYERS dp, as the engine builds them
  // (a device's wall is at most its volume, counted as blood here).
  const vesselParticles = vesselParticleCounter(region.mesh, region.annulus, region.axis);
  const work = (dp: number) => {
    const vessel = vesselParticles(dp, {
      inletEnd_mm: region.bottom_mm + 0.75 * dp,
      outletEnd_mm: region.ascending_mm + OUTLET_BUFFER_DP * dp,
      inletRadius_mm: 1.25 * region.inletRadius_mm + dp,
      outletRadius_mm: 1.25 * region.outletRadius_mm + dp,
      wallThickness_mm: WALL_LAYERS * dp,
    });
    const particles = vessel.fluid + vessel.wall + (p.particleCount ?? 0);
    const steps = flowSteps({
      endTime_s: endTime,
      dp_m: dp / 1000,
      referenceVelocity_m_s: uRef,
      soundSpeed_m_s: 10 * uRef,
      kinematicViscosity_m2_s:
        (p.shearThinning ? BLOOD_CARREAU.mu0 : p.bloodViscosity_mPa_s! / 1000) / p.bloodDensity_kg_m3!,
    });
    return { particles, steps: steps.acoustic };
  };
  const nominal = Math.min(region.lvotDiameter_mm / FLOW_DIVISIONS[input.resolution], MAX_FLOW_DP_MM);
  const dp = input.resolution === 'coarse' ? boundedSpacing(nominal, COARSE_FLOW_MAX_WORK, work) : nominal;
  const inletHeight = region.bottom_mm + INLET_BUFFER_DP * dp + 0.75 * dp;
  const outletHeight = region.ascending_mm;
  const inlet: RegionPlane = {
    centre: onAxis(region, inletHeight),
    normal: region.axis,
    radius: 1.25 * region.inletRadius_mm + dp,
  };
  const outlet: RegionPlane = {
    centre: onAxis(region, outletHeight),
    normal: region.axis,
    radius: 1.25 * region.outletRadius_mm + dp,
  };
  const frames =
    input.resolution === 'test' ? FRAMES.test : Math.max(1, Math.round(FRAMES[input.resolution] * p.cycles!));
  // Monitor planes just upstream and downstream of the devices (of the annulus when there is none).
  let [lo, hi] = [0, 0];
  for (const m of deviceMeshes) {
    const [a, b] = axialSpan(region, m);
    [lo, hi] = [Math.min(lo, a), Math.max(hi, b)];
  }
  const upstream = Math.max(inletHeight + dp, lo - 2 * dp);
  const downstream = Math.min(outletHeight - dp, hi + 2 * dp);
  const files: Record<string, Uint8Array> = {
    'vessel.stl': writeBinaryStl(withHoles(region.mesh, deviceMeshes), 'aortic root with the devices as holes, mm'),
  };
  const monitorPlane = (name: string, height: number) => ({
    name,
    centre: mm(onAxis(region, height)),
    normal: [...region.axis] as [number, number, number],
    radius: (1.25 * Math.max(region.inletRadius_mm, region.outletRadius_mm) + dp) / 1000,
  });
  const engineCase: Record<string, unknown> = {
    dimension: 3,
    dp: dp / 1000,
    endTime,
    outputInterval: endTime / frames,
    threads: input.threads ?? 1,
    backend: FLOW_BACKEND,
    fluid: {
      name: 'blood',
      density: p.bloodDensity_kg_m3,
      viscosity: p.bloodViscosity_mPa_s! / 1000,
      referenceVelocity: uRef,
      freeSurface: false,
      ...(p.shearThinning ? { shearThinning: 'blood' } : {}),
      vessel: { file: 'vessel.stl', scale: 1e-3, wallLayers: WALL_LAYERS },
      inlets: [
        {
          centre: mm(inlet.centre),
          direction: [...region.axis],
          radius: inlet.radius / 1000,
          length: (INLET_BUFFER_DP * dp) / 1000,
          profile: 'plug',
          flowRate: { table: inflow.table.map(([t, q]) => [t, q]), period: inflow.period },
        },
      ],
      outlets: [
        {
          centre: mm(outlet.centre),
          direction: [...region.axis],
          radius: outlet.radius / 1000,
          pressure: p.outletPressure_mmHg! * MMHG,
        },
      ],
    },
    particles: input.kind === 'particle' ? [particleSet(p, region, inletHeight + dp)] : [],
    monitors: {
      planes: [monitorPlane('upstream', upstream), monitorPlane('downstream', downstream)],
      pressureDrops: [['upstream', 'downstream']],
      wallShearStress: true,
      residenceTime: input.kind === 'particle',
    },
  };
  const { particles, steps } = work(dp);
  return {
    engineCase,
    files,
    estimate: {
      dp_mm: dp,
      particles,
      endTime_s: endTime,
      steps,
      seconds: Math.ceil(flowRunSeconds(particles, steps, FLOW_BACKEND, input.threads ?? 1)),
    },
    planes: { inlet, outlet },
  };
}

/**
 * The smallest spacing from `nominal` up to MAX_FLOW_DP_MM (mm) whose work (`flowWork`) is at most `maxWork`;
 * MAX_FLOW_DP_MM when even that needs more. The work falls as the spacing grows (about as dp⁻⁴).
 */
export function boundedSpacing(
  nominal: number,
  maxWork: number,
  work: (dp: number) => { particles: number; steps: number },
): number {
  const load = (dp: number) => {
    const w = work(dp);
    return flowWork(w.particles, w.steps);
  };
  if (nominal >= MAX_FLOW_DP_MM || load(nominal) <= maxWork) return nominal;
  if (load(MAX_FLOW_DP_MM) > maxWork) return MAX_FLOW_DP_MM;
  let [lo, hi] = [nominal, MAX_FLOW_DP_MM];
  // Bisection to a micrometre (the work steps with whole particles and steps, so it is not smooth below that).
  while (hi - lo > 1e-3) {
    const mid = (lo + hi) / 2;
    if (load(mid) <= maxWork) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The vessel with the devices as holes: their closed surfaces added to the lumen's. The engine tells inside from
 * outside by ray parity, so a point inside a device (inside the lumen too) crosses two surfaces and lies outside the
 * fluid; the device's surface gets wall particles on the vessel's own lattice, with normals into the lumen, like the
 * vessel wall. Filled as a separate wall region instead, the device overlapped the vessel's fluid: the blood that
 * started inside it (summed densities up to 1.8 ρ₀) was thrown out at tens of m/s, and at the standard resolution
 * the flow went to NaN within 1 ms, after which the outlet passed nothing and the inlet filled the particle capacity
 * in systole. A device reaching through the vessel wall leaves its outer part as an enclosed pocket of still fluid,
 * sealed off from the lumen by the walls on both surfaces.
 */
function withHoles(vessel: TriangleMesh, devices: readonly TriangleMesh[]): TriangleMesh {
  if (devices.length === 0) return vessel;
  const meshes = [vessel, ...devices];
  const positions = new Float64Array(meshes.reduce((n, m) => n + m.positions.length, 0));
  const indices = new Uint32Array(meshes.reduce((n, m) => n + m.indices.length, 0));
  let p = 0;
  let t = 0;
  for (const m of meshes) {
    const offset = p / 3;
    positions.set(m.positions, p);
    for (let k = 0; k < m.indices.length; k++) indices[t + k] = m.indices[k]! + offset;
    p += m.positions.length;
    t += m.indices.length;
  }
  return { positions, indices };
}

/** Released on a disc across the LVOT just past the inlet: a sunflower spiral covers it evenly. */
function particleSet(p: SimulationParameters, region: SimulatedRegion, height: number) {
  const n = p.particleCount!;
  const [u, v] = basis(region.axis);
  const radius = 0.6 * (region.lvotDiameter_mm / 2);
  const golden = Math.PI * (3 - Math.sqrt(5));
  const centre = onAxis(region, height);
  const positions: [number, number, number][] = [];
  for (let k = 0; k < n; k++) {
    const r = radius * Math.sqrt((k + 0.5) / n);
    const a = k * golden;
    positions.push(mm(add(centre, add(scale(u, r * Math.cos(a)), scale(v, r * Math.sin(a))))));
  }
  return {
    name: 'particles',
    mode: 'inertial',
    diameter: p.particleDiameter_um! * 1e-6,
    density: p.particleDensity_kg_m3,
    drag: 'schiller_naumann',
    positions,
    captureByWalls: true,
  };
}

/**
 * The solid kind: the device expands from crimped to nominal into the anatomy (docs/decisions/
 * scenario-solid-expansion.md). The device, filled from its placed STL (its nominal, stress-free shape; not relaxed:
 * the server rebuilds the case at every saved timestep, and relaxing would cost seconds to minutes each time), is
 * crimped by the engine's sheath to a radial scale `crimpRatio` about the root axis through its centre over the first
 * third of the simulated time (no contact with the anatomy yet), expanded as the sheath opens over the second third,
 * and released for the last third, while the pressure load pushes it downstream. The anatomy is
 * the aortic root's surface shell near the device as a thin elastic layer (`elasticWall`; or, with `rigidAnatomy`, a
 * rigid wall), in contact with it with Coulomb friction.
 * Quasi-static by mass damping at the device's breathing mode. Outputs: the frames (displacement, von Mises stress
 * and strain) and, per saved timestep in `monitors.csv`, the device diameter and ovality at up to three planes, the
 * peak von Mises stress, the peak contact pressure, the contact force and the line load on the anatomy, the axial
 * displacement (the planes follow the device along the axis).
 */
function solidCase(input: ScenarioInput, p: SimulationParameters, mesh: TriangleMesh): Built {
  const region = simulatedRegion(input.patient, input.phase);
  const { volume_mm3, min, max } = deviceExtent(mesh);
  // At least about four particles across the device's wall: 2V/A is the wall thickness of a sheet or tube and the
  // tube radius of a torus; a device with two particles across was unstable in the engine's tests.
  const thickness = (2 * volume_mm3) / surfaceArea_mm2(mesh);
  const dp = Math.min(Math.cbrt(volume_mm3 / SOLID_PARTICLES[input.resolution]), thickness / 2);
  const centre: Vec3 = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const axis = region.axis;
  // Axial span (from the centre) and the largest distance from the axis through the centre (the nominal radius).
  let lo = Infinity;
  let hi = -Infinity;
  let radius = 0;
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const d = sub([mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!], centre);
    const along = dot(d, axis);
    lo = Math.min(lo, along);
    hi = Math.max(hi, along);
    radius = Math.max(radius, Math.hypot(...sub(d, scale(axis, along))));
  }
  const length = Math.max(hi - lo, dp);
  const crimp = p.crimpRatio!;
  // The test resolution (CI, journeys) keeps the wall at the device's spacing (`elasticWall`).
  const wall = p.rigidAnatomy ? null : elasticWall(p, radius, dp, input.resolution !== 'test');
  checkCrimpedInside(region, mesh, centre, axis, crimp, dp, input.devices[0]!.name);
  const E = p.youngsModulus_GPa! * 1e9;
  const nu = p.poissonRatio!;
  const rho = p.materialDensity_kg_m3!;
  // P-wave speed of the material; the solid's step is about 0.6 h / c.
  const c = Math.sqrt((E * (1 - nu)) / (rho * (1 + nu) * (1 - 2 * nu)));
  const dt = (0.6 * 1.3 * dp * 1e-3) / c;
  const endTime = input.resolution === 'test' ? TEST_SOLID_STEPS * dt : p.simulatedTime_ms! / 1000;
  // The pressure load over the device's projected area as a body force along the axis (downstream).
  const force = p.loadPressure_mmHg! * MMHG * Math.PI * (radius / 1000) ** 2;
  const acceleration = force / (rho * volume_mm3 * 1e-9);
  // Planes where the diameter is measured (m from the centre along the axis): inflow, middle and outflow of a device
  // long enough to hold three rows of particles apart, else the middle.
  const planes = length >= 8 * dp ? [lo + 0.15 * length, (lo + hi) / 2, hi - 0.15 * length] : [(lo + hi) / 2];
  // The elastic wall's band reaches 2/β beyond the device (`elasticWall`); at the test resolution (a run of seconds
  // for CI and journeys, whose 300 steps are shorter than one breathing period of the wall: an impact, not a fit) it
  // keeps the rigid shell's 4 dp, which halves its particles.
  const margin = Math.max(4 * dp, input.resolution === 'test' ? 0 : (wall?.margin_mm ?? 0));
  const engineCase = {
    dimension: 3,
    dp: dp / 1000,
    endTime,
    outputInterval: endTime / FRAMES[input.resolution],
    threads: input.threads ?? 1,
    solids: [
      {
        name: 'device',
        // Neo-Hookean: crimping is a large compression (20 % at the default ratio), where St Venant–Kirchhoff softens.
        material: { model: 'neo_hookean', density: rho, youngsModulus: E, poissonRatio: nu },
        region: { shapes: [{ type: 'stl', file: 'device.stl', scale: 1e-3 }] },
        // About the angular frequency of the device's breathing mode (a ring's ω = √(E/ρ) / R).
        damping: Math.sqrt(E / rho) / (radius / 1000),
        expansion: {
          origin: mm(centre),
          direction: [...axis],
          crimp,
          // The sheath crimps the stress-free device over the first third (a geometric crimp starts a stiff device
          // out of equilibrium: km/s at the start, a divergence at coarse with crimp 0.7;
          // docs/decisions/solid-contact-pressure.md), opens over the second, and releases it for the last.
          crimpTime: endTime / 3,
          expansionTime: endTime / 3,
          releaseTime: endTime / 3,
          planes: planes.map((s) => s / 1000),
          load: [...scale(axis, acceleration)],
        },
      },
    ],
    walls: {
      vessel: {
        file: 'vessel.stl',
        scale: 1e-3,
        wallLayers: wall?.layers ?? SHELL_LAYERS,
        axialRange: {
          origin: mm(centre),
          direction: [...axis],
          from: (lo - margin) / 1000,
          to: (hi + margin) / 1000,
        },
        ...(wall ? { elastic: wall.elastic(c) } : {}),
      },
    },
    contact: { friction: p.frictionCoefficient!, stiffness: 1 },
    monitors: {},
  };
  const device = Math.round(volume_mm3 / dp ** 3);
  // The shell near the device: a band of the vessel wall about 15 % wider than the device, SHELL_LAYERS thick.
  const layers = wall?.layers ?? SHELL_LAYERS;
  const wallDp = wall?.dp_mm ?? dp;
  const shell = Math.round(
    (2 * Math.PI * 1.15 * (radius + dp) * (length + 2 * margin) * layers * wallDp) / wallDp ** 3,
  );
  const steps = Math.ceil(endTime / dt);
  return {
    engineCase,
    files: {
      'device.stl': writeBinaryStl(mesh, 'placed device, mm'),
      'vessel.stl': writeBinaryStl(region.mesh, 'aortic root, mm'),
    },
    estimate: estimate(dp, device + shell, endTime, steps),
    planes: null,
  };
}

/** Poisson's ratio of the anatomy's wall: nearly incompressible soft tissue. */
const WALL_POISSON = 0.45;
/** Density of the anatomy's wall, kg/m³ (soft tissue), before the mass scaling. */
const WALL_DENSITY = 1100;

/**
 * The anatomy's wall as a thin elastic layer (docs/decisions/solid-contact-pressure.md, "The elastic anatomy"): the
 * vessel shell `wallThickness_mm` thick (at least SHELL_LAYERS particles, of a spacing up to twice the device's),
 * neo-Hookean with `wallModulus_MPa` and ν = 0.45, held fixed at both ends of its band. The band reaches 2/β beyond
 * the device on each side, β⁴ = 3(1 − ν²)/(R t)², the decay rate of a thin cylinder's bending under a ring load
 * (Timoshenko & Woinowsky-Krieger, Theory of Plates and Shells, §114): the deflection there is 7 % of the peak, so
 * the clamped ends hold little of the load. Mass scaling: the wall's density is lowered until its P-wave speed is
 * half the device's (never raised), so the wall's breathing mode (period ≈ 2πR/c) is fast against the expansion and
 * the time step stays the device's; mass damping at that mode (as the device's) makes it quasi-static.
 */
function elasticWall(p: SimulationParameters, radius_mm: number, dp_mm: number, ownSpacing: boolean) {
  const E = p.wallModulus_MPa! * 1e6;
  const t = p.wallThickness_mm!;
  const nu = WALL_POISSON;
  const beta = (3 * (1 - nu * nu)) ** 0.25 / Math.sqrt(radius_mm * t);
  const M = (E * (1 - nu)) / ((1 + nu) * (1 - 2 * nu));
  // The wall's own spacing: up to twice the device's, while at least SHELL_LAYERS of it fit the thickness exactly
  // (t / n, n = ⌈t / 2dp⌉ layers). Where they do not (a spacing above t/3), the device's spacing, round(t/dp) layers
  // (docs/decisions/solid-contact-pressure.md, "The elastic wall coarser than the device"). Not at the test
  // resolution (`ownSpacing` false): its runs (CI, journeys) are an impact, not meant to be read, and stay as they were.
  const n = Math.max(SHELL_LAYERS, Math.ceil(t / (2 * dp_mm) - 1e-9));
  const coarser = ownSpacing && t / n > dp_mm;
  const wallDp_mm = coarser ? t / n : dp_mm;
  return {
    layers: coarser ? n : Math.min(16, Math.max(SHELL_LAYERS, Math.round(t / dp_mm))),
    dp_mm: wallDp_mm,
    margin_mm: 2 / beta,
    /** The case file's `walls.vessel.elastic` for a device of P-wave speed `deviceWaveSpeed` (m/s). */
    elastic(deviceWaveSpeed: number) {
      const density = Math.min(WALL_DENSITY, M / (0.5 * deviceWaveSpeed) ** 2);
      // The breathing mode of a thin cylinder: ω = √(E / (ρ (1 − ν²))) / R.
      const omega = Math.sqrt(E / (density * (1 - nu * nu))) / ((radius_mm + t / 2) / 1000);
      return {
        material: { model: 'neo_hookean', density, youngsModulus: E, poissonRatio: nu },
        damping: omega,
        clamp: (2 * wallDp_mm) / 1000,
        ...(coarser ? { dp: wallDp_mm / 1000 } : {}),
      } as const;
    },
  };
}

/**
 * Refuses a device that, crimped, would still reach within half a spacing of the vessel's wall (it would start inside
 * the anatomy): every vertex, scaled radially by the crimp ratio about the axis and moved out by dp/2, must lie in the
 * lumen.
 */
function checkCrimpedInside(
  region: SimulatedRegion,
  mesh: TriangleMesh,
  centre: Vec3,
  axis: Vec3,
  crimp: number,
  dp: number,
  name: string,
): void {
  const lumen = meshShape(region.mesh, { scale: 1 });
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const d = sub([mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!], centre);
    const along = dot(d, axis);
    const radial = sub(d, scale(axis, along));
    const r = Math.hypot(...radial);
    const out = r > 0 ? (crimp * r + dp / 2) / r : 0;
    const q = add(add(centre, scale(axis, along)), scale(radial, out));
    if (!lumen.contains(q[0], q[1], q[2])) {
      throw new ScenarioError([
        {
          key: 'crimpRatio',
          message: `The device ${name}, crimped to ${crimp} of its diameter, still touches the anatomy: choose a smaller crimped diameter ratio or move the device into the aortic root.`,
        },
      ]);
    }
  }
}

function estimate(dp: number, particles: number, endTime: number, steps: number): Estimate {
  return {
    dp_mm: dp,
    particles,
    endTime_s: endTime,
    steps,
    seconds: Math.ceil(solidRunSeconds(particles, steps)),
  };
}

/** Two unit vectors perpendicular to `n` and to each other. */
function basis(n: Vec3): [Vec3, Vec3] {
  const a: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u0 = sub(a, scale(n, dot(a, n)));
  const lu = Math.hypot(...u0);
  const u: Vec3 = scale(u0, 1 / lu);
  const v: Vec3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  return [u, v];
}
