import { generatePopulation } from '@insilico/anatomy';
import type { FrameColumn } from '@insilico/contracts';
import { planeSection } from '@insilico/mesh';
import { deliveredRegion, type DeliveredPatient } from '@insilico/scenarios';
import { decodeShapeModel, modelInstance } from '@insilico/ssm';
import { describe, expect, it } from 'vitest';
import { buildSsm } from './ssm.task';
import { paravalvularGapInThread } from './trial-gap.task';

/**
 * The paravalvular gap on an SSM's instances (issue 17): a real model built by the server's own task from four
 * virtual patients' aortic roots, its mean and mode 1 at +2 SD taken as ssm.service.ts's `scenarioPatient` takes them
 * (the shape's aortic root, landmarks moved with their vertex). The device is a tube of particles centred on the
 * shape's annulus, across the root's axis, its outer surface (centres + dp/2) a circle of radius 5 mm, stored as a
 * frame (float32, component-major). Reference, independent of the gap's polar integration: the annulus section's
 * area as the mesh's signed section area (`planeSection`, a sum of oriented segment triangles) less π·5².
 * Tolerance 10⁻⁴ of the section’s area, as the gap’s own tests (measured: 3 × 10⁻⁷ and 6 × 10⁻⁷).
 */
const RADIUS = 5;
const DP = 0.5;

/** The model's shape `deviations` (SD per mode; [] the mean) as the patient of a simulation. */
function shapeOf(built: ReturnType<typeof buildSsm>, deviations: number[]): DeliveredPatient {
  const file = decodeShapeModel(built.bytes);
  const positions = modelInstance(file, deviations);
  const part = built.card.parts.find((p) => p.organ === 'aortic_root')!;
  return {
    source: 'ssm',
    id: 'Gap model',
    phase: deviations.length === 0 ? 'mean' : deviations.join(','),
    aorticRoot: {
      positions: positions.slice(3 * part.firstVertex, 3 * (part.firstVertex + part.vertices)),
      indices: file.indices
        .slice(3 * part.firstTriangle, 3 * (part.firstTriangle + part.triangles))
        .map((v) => v - part.firstVertex),
    },
    landmarks: built.landmarks.map(({ name, position, vertex }) => ({
      name,
      position: [0, 1, 2].map((a) => position[a]! + positions[3 * vertex + a]! - file.mean[3 * vertex + a]!) as [
        number,
        number,
        number,
      ],
    })),
    strokeVolume_mL: null,
  };
}

/** A device frame: three layers (−dp, 0, dp along the axis) of three rings each, the outer at RADIUS − dp/2. */
function deviceFrame(centre: readonly number[], axis: readonly number[]) {
  const a = Math.abs(axis[0]!) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const along = a[0]! * axis[0]! + a[1]! * axis[1]! + a[2]! * axis[2]!;
  const u0 = a.map((v, k) => v - along * axis[k]!);
  const u = u0.map((v) => v / Math.hypot(...u0));
  const v = [
    axis[1]! * u[2]! - axis[2]! * u[1]!,
    axis[2]! * u[0]! - axis[0]! * u[2]!,
    axis[0]! * u[1]! - axis[1]! * u[0]!,
  ];
  const points: number[][] = [];
  for (const layer of [-DP, 0, DP])
    for (let ring = 0; ring < 3; ring++) {
      const r = RADIUS - DP / 2 - ring * DP;
      const count = Math.ceil((2 * Math.PI * r) / DP);
      for (let i = 0; i < count; i++) {
        const t = (2 * Math.PI * i) / count;
        points.push(
          [0, 1, 2].map((k) => centre[k]! + layer * axis[k]! + r * (Math.cos(t) * u[k]! + Math.sin(t) * v[k]!)),
        );
      }
    }
  const count = points.length;
  const values = new Float32Array(3 * count);
  for (let k = 0; k < 3; k++) for (let i = 0; i < count; i++) values[k * count + i] = points[i]![k]!;
  const columns: FrameColumn[] = [{ name: 'position', type: 'float32', components: 3, offset: 0, byteLength: 0 }];
  return { frame: new Uint8Array(values.buffer), count, columns };
}

describe('the paravalvular gap on an SSM’s instances', () => {
  const built = buildSsm(
    {
      patients: generatePopulation({ seed: 17, count: 4 }).patients.map((patient) => ({ patient, cohortId: 'c' })),
      organs: ['aortic_root'],
      phase: 'end-diastole',
      seed: 1,
      samples: 10,
      curveModes: 1,
    },
    { progress: () => undefined, transfer: () => undefined },
  );

  it.each([
    ['the mean', []],
    ['mode 1 at +2 SD', [2]],
  ])('on %s: the annulus section less the device’s circle', (_, deviations) => {
    const shape = shapeOf(built, deviations);
    const region = deliveredRegion(shape);
    const section = Math.abs(planeSection(region.mesh, region.annulus, region.axis).area_mm2);
    // Far from any threshold: the device's circle is well inside a root of this size.
    expect(section).toBeGreaterThan(4 * Math.PI * RADIUS ** 2);
    const gap = paravalvularGapInThread({
      patient: shape,
      phase: null,
      ...deviceFrame(region.annulus, region.axis),
      dp_mm: DP,
    });
    expect(gap.note).toBe('');
    const expected = section - Math.PI * RADIUS ** 2;
    expect(Math.abs(gap.value! - expected)).toBeLessThan(1e-4 * section);
  });

  it('says why when the device does not reach the annulus plane', () => {
    const shape = shapeOf(built, []);
    const region = deliveredRegion(shape);
    const away = region.annulus.map((c, k) => c + 10 * region.axis[k]!);
    const gap = paravalvularGapInThread({ patient: shape, phase: null, ...deviceFrame(away, region.axis), dp_mm: DP });
    expect(gap).toEqual({ value: null, note: 'The device does not reach the annulus plane at the end of the run.' });
  });
});
