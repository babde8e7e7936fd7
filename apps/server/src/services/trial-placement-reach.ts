import { trialLandmarkNames } from '@insilico/contracts';
import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import type { PlacementRule, RulePlacement, SimulatedRegion } from '@insilico/scenarios';
import { meshShape } from '@insilico/sph';

/**
 * A rule's placement checked against the anatomy a simulation runs in (issue 17 follow-up): the case building refuses
 * a device whose centre lies outside the simulated region's lumen (LVOT, aortic root and ascending aorta) with a
 * room's sentence ("… save the room first"), which a trial's patient cannot act on. Here the same test (ray parity on
 * the region's closed mesh, mm) refuses it at placement, naming how far this patient's modelled root reaches along the
 * annulus' normal, so the depth offset can be corrected in a retry. `region` is only built for a placement to check.
 */
export function withinSimulatedAnatomy(
  placed: RulePlacement,
  rule: PlacementRule,
  region: () => SimulatedRegion,
): RulePlacement {
  if (!placed.ok) return placed;
  const simulated = region();
  const [x, y, z] = placed.transform.position;
  if (meshShape(simulated.mesh, { scale: 1 }).contains(x, y, z)) return placed;
  return { ok: false, reason: outsideReason(rule, simulated), annulusDiameter_mm: placed.annulusDiameter_mm };
}

function outsideReason(rule: PlacementRule, region: SimulatedRegion): string {
  if (rule.landmark !== 'aortic_annulus')
    return `At the ${trialLandmarkNames[rule.landmark]} with a depth offset of ${rule.depth_mm} mm the device’s centre lies outside the simulated anatomy (the LVOT, aortic root and ascending aorta): simulations run in the aortic root only.`;
  // The rule moves the centre along the annulus' normal, the region's axis: heights along it are depth offsets.
  const [lowest, highest] = axialReach(region.mesh, region.annulus, region.axis);
  return `The depth offset ${rule.depth_mm} mm puts the device’s centre outside this patient’s modelled aortic root, which reaches from ${(-lowest).toFixed(1)} mm below the aortic annulus (the LVOT’s end) to ${highest.toFixed(1)} mm above it. Choose a depth offset within that reach.`;
}

/** The lowest and highest heights (mm) of the mesh's vertices along `axis` from `origin`. */
function axialReach(mesh: TriangleMesh, origin: Vec3, axis: Vec3): [number, number] {
  let lowest = Infinity;
  let highest = -Infinity;
  const p = mesh.positions;
  for (let i = 0; i < p.length; i += 3) {
    const h = (p[i]! - origin[0]) * axis[0] + (p[i + 1]! - origin[1]) * axis[1] + (p[i + 2]! - origin[2]) * axis[2];
    lowest = Math.min(lowest, h);
    highest = Math.max(highest, h);
  }
  return [lowest, highest];
}
