import { buildPatientMeshes, generatePatient, landmarkOf, organMesh } from '@insilico/anatomy';
import {
  buildScenario,
  placeByRule,
  ringDeviceMesh,
  ScenarioError,
  simulatedRegion,
  type DeliveredPatient,
  type PlacementRule,
  type PlacementTransform,
} from '@insilico/scenarios';
import { describe, expect, it } from 'vitest';
import { placeByRuleInThread, placeDeliveredByRuleInThread } from './trial-placement.task';

/**
 * A trial's placement refuses a device centre outside the simulated anatomy (issue 17 follow-up), in words, where the
 * case building would refuse it later with a room's sentence. References independent of the check: the anatomy's LVOT
 * ends 10 mm below the aortic annulus (its aortic root loft), and the set-up's own refusal (`buildScenario`) for the
 * same placement of a ring (symmetric about its centre, so its placed box's centre is the placement's position).
 */
const patient = generatePatient(20261125, 7);
const phase = 'end-diastole';
const rule = (over: Partial<PlacementRule> = {}): PlacementRule => ({
  landmark: 'aortic_annulus',
  depth_mm: 0,
  annulusRange_mm: null,
  ...over,
});
const place = (over: Partial<PlacementRule>) => placeByRuleInThread({ patient, phase, rule: rule(over) });
const region = simulatedRegion(patient, phase);

/** Whether the set-up (solid kind, test resolution) refuses the placement as lying outside the simulated anatomy. */
function setUpRefuses(transform: PlacementTransform): boolean {
  try {
    buildScenario({
      patient,
      phase,
      kind: 'solid',
      resolution: 'test',
      parameters: {},
      devices: [{ name: 'Ring', transform, meshes: [ringDeviceMesh(8, 1.5)] }],
    });
    return false;
  } catch (error) {
    // Another refusal (a ring crossing the LVOT's end touches the anatomy) comes after the centre was found inside.
    if (error instanceof ScenarioError) return /lies outside the simulated anatomy/.test(error.message);
    throw error;
  }
}

describe('a trial placement beyond the modelled root', () => {
  it('is refused below the LVOT’s end with the root’s reach, and kept with the measured annulus', () => {
    const placed = place({ depth_mm: -15 });
    const within = place({ depth_mm: 0 });
    expect(placed.ok).toBe(false);
    if (placed.ok || !within.ok) return;
    const match =
      /^The depth offset -15 mm puts the device’s centre outside this patient’s modelled aortic root, which reaches from (\d+\.\d) mm below the aortic annulus \(the LVOT’s end\) to (\d+\.\d) mm above it\. Choose a depth offset within that reach\.$/.exec(
        placed.reason,
      );
    expect(match, placed.reason).not.toBeNull();
    expect(Number(match![1])).toBeCloseTo(10, 1);
    // The loft reaches at least the ascending aorta landmark.
    expect(Number(match![2])).toBeGreaterThanOrEqual(Math.floor(region.ascending_mm * 10) / 10);
    expect(placed.annulusDiameter_mm).toBe(within.annulusDiameter_mm);
  });

  it('agrees with the set-up’s refusal on either side of the LVOT’s end and inside the root', () => {
    for (const depth_mm of [-10.5, -9.5, 2, 20]) {
      const unchecked = placeByRule(patient, phase, rule({ depth_mm }));
      if (!unchecked.ok) throw new Error(`the aortic annulus places at depth ${depth_mm}`);
      expect(place({ depth_mm }).ok, `depth ${depth_mm}`).toBe(!setUpRefuses(unchecked.transform));
    }
    expect(place({ depth_mm: -10.5 }).ok).toBe(false);
    expect(place({ depth_mm: -9.5 }).ok).toBe(true);
  });

  it('leaves a size-range refusal as it was (the sizing chart is checked first)', () => {
    const placed = place({ depth_mm: -15, annulusRange_mm: { min: 5, max: 6 } });
    expect(placed.ok).toBe(false);
    if (!placed.ok) expect(placed.reason).toMatch(/^The aortic annulus measures \d+\.\d mm, outside the device’s size/);
  });

  it('refuses another annulus, which lies outside the aortic root the simulations run in', () => {
    const placed = place({ landmark: 'mitral_annulus' });
    expect(placed.ok).toBe(false);
    if (!placed.ok)
      expect(placed.reason).toBe(
        'At the mitral annulus with a depth offset of 0 mm the device’s centre lies outside the simulated anatomy (the LVOT, aortic root and ascending aorta): simulations run in the aortic root only.',
      );
    const unchecked = placeByRule(patient, phase, rule({ landmark: 'mitral_annulus' }));
    if (!unchecked.ok) throw new Error('the mitral annulus has a plane');
    expect(setUpRefuses(unchecked.transform)).toBe(true);
  });

  it('refuses on a delivered surface by its own LVOT’s end', () => {
    const meshes = buildPatientMeshes(patient, phase);
    const delivered: DeliveredPatient = {
      source: 'imaging',
      id: 'P0123456789ab',
      phase,
      aorticRoot: organMesh(meshes, 'aortic_root'),
      landmarks: (['aortic_annulus', 'ascending_aorta'] as const).map((name) => ({
        name,
        position: landmarkOf(meshes, name).position,
      })),
      strokeVolume_mL: null,
    };
    const inside = placeDeliveredByRuleInThread({ patient: delivered, rule: rule({ depth_mm: -5 }) });
    expect(inside.ok).toBe(true);
    const outside = placeDeliveredByRuleInThread({ patient: delivered, rule: rule({ depth_mm: -12 }) });
    expect(outside.ok).toBe(false);
    if (outside.ok) return;
    // Its axis runs from the annulus to the ascending aorta landmark, within 2.6° of the loft's (delivered.test.ts).
    const below = /^The depth offset -12 mm puts the device’s centre outside .* from (\d+\.\d) mm below/.exec(
      outside.reason,
    );
    expect(below, outside.reason).not.toBeNull();
    expect(Math.abs(Number(below![1]) - 10)).toBeLessThan(0.2);
  });
});
