import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STROKE_VOLUME_ML,
  ScenarioError,
  annulusPlacement,
  buildScenario,
  defaultParameters,
  deliveredRegion,
  ejectionTime,
  ringDeviceMesh,
  simulatedRegion,
  type DeliveredPatient,
} from './index';

// A patient of the user's own imaging is a closed aortic root surface with landmarks (issue 19). Here it is a virtual
// patient's surface and landmark points handed over as a delivery would be (no normals, no parameters): the region
// measured on it must agree with the region the virtual patient's parameters give.
const patient = generatePatient(20261125, 7);
const meshes = buildPatientMeshes(patient, 'end-diastole');
const points = (['aortic_annulus', 'ascending_aorta', 'lvot', 'sinotubular_junction'] as const).map((name) => ({
  name,
  position: landmarkOf(meshes, name).position,
}));
const delivered: DeliveredPatient = {
  source: 'imaging',
  id: 'P0123456789ab',
  phase: 'end-diastole',
  aorticRoot: organMesh(meshes, 'aortic_root'),
  landmarks: points,
  strokeVolume_mL: null,
};
const synthetic = simulatedRegion(patient, 'end-diastole');

describe('a delivered aortic root surface', () => {
  it('gives the region the virtual patient it came from has: axis, heights and diameters', () => {
    const region = deliveredRegion(delivered);
    // The root loft is straight along the annulus normal up to the ascending aorta landmark.
    const cos = region.axis.reduce((sum, v, i) => sum + v * synthetic.axis[i]!, 0);
    expect(cos).toBeGreaterThan(0.999);
    expect(region.ascending_mm).toBeCloseTo(synthetic.ascending_mm, 6);
    // The loft ends 10 mm below the annulus (anatomy's LVOT depth).
    expect(region.bottom_mm).toBeCloseTo(synthetic.bottom_mm, 1);
    // Perimeter-derived diameters of a polygonal loft: within 3 % of the parameters that shaped it.
    expect(region.lvotDiameter_mm / patient.cardiac.lvotDiameter_mm).toBeGreaterThan(0.97);
    expect(region.lvotDiameter_mm / patient.cardiac.lvotDiameter_mm).toBeLessThan(1.03);
    expect(region.outletRadius_mm / synthetic.outletRadius_mm).toBeGreaterThan(0.95);
    expect(region.outletRadius_mm / synthetic.outletRadius_mm).toBeLessThan(1.03);
    expect(region.inletRadius_mm / synthetic.inletRadius_mm).toBeGreaterThan(0.9);
    expect(region.inletRadius_mm / synthetic.inletRadius_mm).toBeLessThan(1.03);
  });

  it('takes a shape of a statistical shape model the same way (a surface and landmarks, issue 18)', () => {
    const shape: DeliveredPatient = { ...delivered, source: 'ssm', id: 'Aortic roots', phase: 'mode 1 +2 SD' };
    expect(simulatedRegion(shape, null)).toEqual(deliveredRegion(delivered));
  });

  it('builds fluid and solid cases; without LV volumes the stroke volume is the typical one', () => {
    const device = {
      name: 'Ring v1',
      transform: annulusPlacement(deliveredRegion(delivered), 4),
      meshes: [ringDeviceMesh(0.4 * patient.cardiac.aorticAnnulusDiameter_mm, 0.05 * patient.cardiac.lvotDiameter_mm)],
    };
    const room = { patient: delivered, phase: null, resolution: 'test' as const, devices: [device] };
    const fluid = buildScenario({ ...room, kind: 'fluid', parameters: {} });
    expect(fluid.parameters.strokeVolume_mL).toBe(DEFAULT_STROKE_VOLUME_ML);
    expect(fluid.engineCase.fluid?.inlets).toHaveLength(1);
    const solid = buildScenario({ ...room, kind: 'solid', parameters: {} });
    expect(solid.engineCase.solids).toHaveLength(1);
    expect(defaultParameters('fluid', { ...delivered, strokeVolume_mL: 64.2 }).strokeVolume_mL).toBe(64.2);
    // Sex unknown: the mean of Weissler's two regressions.
    expect(ejectionTime(70, null)).toBeCloseTo((ejectionTime(70, 'female') + ejectionTime(70, 'male')) / 2, 12);
  });

  it('refuses a stroke volume from LV volumes measured the wrong way round (a negative inflow), unless one is entered', () => {
    const device = {
      name: 'Ring v1',
      transform: annulusPlacement(deliveredRegion(delivered), 4),
      meshes: [ringDeviceMesh(0.4 * patient.cardiac.aorticAnnulusDiameter_mm, 0.05 * patient.cardiac.lvotDiameter_mm)],
    };
    const room = { patient: { ...delivered, strokeVolume_mL: -42.5 }, phase: null, resolution: 'test' as const };
    const build = (parameters: Record<string, unknown>) =>
      buildScenario({ ...room, devices: [device], kind: 'fluid', parameters });
    let refused: unknown = null;
    try {
      build({});
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ScenarioError);
    expect((refused as ScenarioError).issues).toEqual([
      {
        key: 'strokeVolume_mL',
        message:
          "Stroke volume from the patient's model (-42.5 mL) must lie between 10 and 200 mL: enter a value in that range.",
      },
    ]);
    const entered = build({ strokeVolume_mL: 70 });
    const flow = entered.engineCase.fluid!.inlets[0]!.flowRate;
    expect(typeof flow === 'number' ? flow : Math.min(...flow.table.map(([, q]) => q))).toBeGreaterThanOrEqual(0);
  });

  it('refuses in words what a simulation cannot start from', () => {
    const issue = (over: Partial<DeliveredPatient>) => {
      try {
        deliveredRegion({ ...delivered, ...over });
      } catch (error) {
        if (error instanceof ScenarioError) return error.issues.map((i) => `${i.key}: ${i.message}`).join(' ');
        throw error;
      }
      return 'accepted';
    };
    expect(issue({ landmarks: points.filter((p) => p.name !== 'ascending_aorta') })).toBe(
      "anatomy: Patient P0123456789ab has no ascending aorta landmark: a simulation places its inlet, outlet and the root's axis from the aortic annulus and the ascending aorta.",
    );
    expect(issue({ landmarks: [] })).toContain('has no aortic annulus or ascending aorta landmark');
    expect(issue({ aorticRoot: null, phase: 'systole' })).toBe(
      'anatomy: Patient P0123456789ab has no aortic root surface at systole: simulations need the closed surface of the LVOT, aortic root and ascending aorta (delivered as aortic-root_systole.stl).',
    );
    // The annulus landmark 9.5 mm lower: the surface ends 0.5 mm below it, no LVOT for the inlet.
    const shifted = points.map((p) =>
      p.name === 'aortic_annulus' || p.name === 'lvot'
        ? { ...p, position: p.position.map((v, i) => v - 9.5 * synthetic.axis[i]!) as unknown as typeof p.position }
        : p,
    );
    expect(issue({ landmarks: shifted })).toContain('ends less than 3 mm below the aortic annulus');
  });
});
