import { csvRow } from '@insilico/contracts/csv';
import type { PackedArray } from './checkpoint';
import type { SphCase } from './caseFile';
import { DERIVED_OUTPUTS, FluidAge, captureSummary, meanPressure, volumeFlowRate, type PlaneSection } from './derived';
import type { DeviceExpansion } from './expansion';
import type { OpenBoundaryFluid } from './openBoundary';
import { outputUnit, siToUnitFactor } from './outputLabels';
import type { ParticleTracker } from './tracking';
import type { WeaklyCompressibleFluid } from './fluid';
import type { ViscosityModel } from './viscosity';
import { wallViscousTraction } from './wallTraction';

/** What the monitors read from a running case. */
export interface MonitoredCase {
  fluid: WeaklyCompressibleFluid | undefined;
  open: OpenBoundaryFluid | undefined;
  trackers: readonly { name: string; tracker: ParticleTracker }[];
  /** Signed distance to the wall surface when every wall comes from one mesh (a vessel), for the wall shear stress. */
  wallSurface?: ((x: number, y: number, z: number) => number) | undefined;
  /** The case's time (solid cases have no fluid clock). */
  counters?: { time: number };
  /** The expanded device of a solid case: its figures (`ExpansionRecord`) become columns too. */
  expansion?: DeviceExpansion | undefined;
}

/** One column of `monitors.csv`: its header (name and unit) and how to read it in SI, with the display factor. */
interface Column {
  header: string;
  read: () => number;
}

/** Column header `<what> <output> (<unit>)` with the spec §9 unit of the output name (SI or medical). */
function header(what: string, output: string, system: 'si' | 'medical' = 'si'): { text: string; factor: number } {
  const unit = outputUnit(output, system);
  const factor = siToUnitFactor(unit) ?? 1;
  return { text: `${what ? `${what} ` : ''}${output}${unit ? ` (${unit})` : ''}`, factor };
}

/**
 * The case file's `monitors`: derived outputs (`derived.ts`) sampled at every saved timestep into the rows of
 * `monitors.csv`, each value in the unit of its header (spec §9: L/min, Pa and mmHg, s, %). Call `afterStep` after
 * every step (the residence time needs each particle's entry step).
 */
export class CaseMonitors {
  private readonly columns: Column[] = [];
  private readonly age: FluidAge | undefined;

  /** `_mu`: the viscosity the wall shear stress once took; the wall traction reads the fluid's own (unused). */
  constructor(spec: NonNullable<SphCase['monitors']>, sim: MonitoredCase, _mu: number | ViscosityModel) {
    const fluid = sim.fluid;
    const dp = fluid?.options.dp ?? 0;
    const planes = new Map<string, PlaneSection>();
    this.age = spec.residenceTime && fluid ? new FluidAge(fluid.fluid, fluid.counters.time, sim.open) : undefined;
    const add = (what: string, output: string, read: () => number, system: 'si' | 'medical' = 'si'): void => {
      const h = header(what, output, system);
      this.columns.push({ header: h.text, read: () => read() * h.factor });
    };
    add('', 'time', () => fluid?.counters.time ?? sim.counters?.time ?? 0);
    this.columns[0]!.header = 'time (s)';
    if (fluid) {
      for (const p of spec.planes) {
        const plane: PlaneSection = {
          centre: p.centre,
          normal: p.normal,
          ...(p.radius !== undefined ? { radius: p.radius } : {}),
        };
        planes.set(p.name, plane);
        add(p.name, DERIVED_OUTPUTS.flowRate, () => volumeFlowRate(fluid.fluid, plane, dp));
        add(p.name, DERIVED_OUTPUTS.pressure, () => meanPressure(fluid.fluid, plane, dp));
        add(p.name, DERIVED_OUTPUTS.pressure, () => meanPressure(fluid.fluid, plane, dp), 'medical');
        const age = this.age;
        if (age) add(p.name, DERIVED_OUTPUTS.residenceTime, () => age.meanThroughPlane(plane, dp));
      }
      for (const [a, b] of spec.pressureDrops) {
        const up = planes.get(a)!;
        const down = planes.get(b)!;
        const drop = (): number => meanPressure(fluid.fluid, up, dp) - meanPressure(fluid.fluid, down, dp);
        add(`${a}-${b}`, DERIVED_OUTPUTS.pressureDrop, drop);
        add(`${a}-${b}`, DERIVED_OUTPUTS.pressureDrop, drop, 'medical');
      }
      if (spec.wallShearStress && fluid.wall.count > 0) {
        let cache: { time: number; mean: number; max: number } | null = null;
        const wss = (): { mean: number; max: number } => {
          if (cache?.time === fluid.counters.time) return cache;
          // The scheme's wall friction per unit area, not the velocity fit of `wallShearStress`: the fit reads the
          // fluid's slip at the wall as shear (+6 % in the running tube flows; docs/validation.md, "Wall shear stress in
          // a running flow"). It uses the fluid's own (per-particle) viscosity.
          const t = wallViscousTraction(fluid, sim.wallSurface ? { surfaceDistance: sim.wallSurface } : {});
          let sum = 0;
          let n = 0;
          let max = 0;
          for (let i = 0; i < t.surface.length; i++) {
            if (!t.surface[i]) continue;
            sum += t.magnitude[i]!;
            max = Math.max(max, t.magnitude[i]!);
            n++;
          }
          cache = { time: fluid.counters.time, mean: n > 0 ? sum / n : 0, max };
          return cache;
        };
        add('mean', DERIVED_OUTPUTS.wallShearStress, () => wss().mean);
        add('max', DERIVED_OUTPUTS.wallShearStress, () => wss().max);
      }
    }
    for (const { name, tracker } of sim.trackers) {
      add(name, DERIVED_OUTPUTS.capturePercentage, () => captureSummary(tracker).capturePercentage);
    }
    const expansion = sim.expansion;
    if (expansion) {
      // The device's figures (docs/decisions/sph-device-expansion.md), recorded once per saved timestep.
      for (let k = 0; k < expansion.planeCount; k++) {
        add(`plane_${k + 1}`, DERIVED_OUTPUTS.deviceDiameter, () => expansion.current().diameter[k]!);
        add(`plane_${k + 1}`, DERIVED_OUTPUTS.ovality, () => expansion.current().ovality[k]!);
      }
      add('max', DERIVED_OUTPUTS.vonMisesStress, () => expansion.current().peakVonMises);
      add('max', DERIVED_OUTPUTS.contactPressure, () => expansion.current().peakContactPressure);
      add('max', DERIVED_OUTPUTS.contactPressure, () => expansion.current().peakContactPressure, 'medical');
      add('total', DERIVED_OUTPUTS.contactForce, () => expansion.current().contactForce);
      add('mean', DERIVED_OUTPUTS.lineLoad, () => expansion.current().lineLoad);
      add('device', DERIVED_OUTPUTS.axialDisplacement, () => expansion.current().axialShift);
    }
  }

  /** Records the fluid particles that entered during the last step (for the residence time). */
  afterStep(time: number): void {
    this.age?.update(time);
  }

  /** The monitors' state for a checkpoint: each fluid particle's entry time when the residence time is monitored. */
  state(): PackedArray[] {
    if (!this.age) return [];
    const { entry, time } = this.age.state();
    return [
      { name: 'monitors.entry', data: entry },
      { name: 'monitors.ageTime', data: new Float64Array([time]) },
    ];
  }

  /** Restores `state()`; throws if the checkpoint lacks the entry times the residence time needs. */
  restore(arrays: ReadonlyMap<string, Float64Array | Int32Array>): void {
    if (!this.age) return;
    const entry = arrays.get('monitors.entry');
    const time = arrays.get('monitors.ageTime');
    if (!(entry instanceof Float64Array) || !(time instanceof Float64Array) || time.length !== 1) {
      throw new Error("the checkpoint does not fit this case ('monitors.entry': the residence time's entry times)");
    }
    this.age.restore(entry, time[0]!);
  }

  /** The CSV header line. */
  header(): string {
    return csvRow(this.columns.map((c) => c.header));
  }

  /** The CSV line of the current state (NaN where a value is undefined, e.g. no flow across a plane). */
  row(): string {
    const values = this.columns.map((c) => {
      try {
        return c.read();
      } catch {
        return Number.NaN;
      }
    });
    return csvRow(values, { number: String });
  }
}
