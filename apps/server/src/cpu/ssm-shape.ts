import type { Landmark, LandmarkName, OrganMesh } from '@insilico/anatomy';
import type { SsmModelCard } from '@insilico/contracts';
import { landmarksAt, modelInstance, type ShapeModelFile } from '@insilico/ssm';
import type { SsmLandmark } from './ssm.task';

/** A shape of a model: its joint mesh's positions, each organ's mesh and its landmarks. */
export interface ModelShape {
  positions: Float64Array;
  organs: OrganMesh[];
  landmarks: Landmark[];
}

/** Whether a model's landmarks move with its modes (models built with SSM_CODE_VERSION ssm-2 on). */
export function landmarksFollowModes(landmarks: readonly SsmLandmark[]): boolean {
  return landmarks.length > 0 && landmarks.every((l) => l.modes !== undefined);
}

/**
 * The shape of a model at standard deviations per mode (`[]`: the mean): positions from the modes, each organ's
 * mesh cut out of the joint mesh (indices from 0), and the landmarks. Where the model has landmark modes
 * (`landmarkModes` of @insilico/ssm) each landmark, its normal and its axis follow the modes (normal and axis
 * renormalised), so planes tilt and move with the shape (docs/decisions/ssm-mode-measurements.md); a model built
 * before them moves each landmark with its nearest vertex of the mean and keeps its directions.
 */
export function modelShape(
  file: ShapeModelFile,
  parts: SsmModelCard['parts'],
  meanLandmarks: readonly SsmLandmark[],
  deviations: readonly number[],
): ModelShape {
  const positions = modelInstance(file, deviations);
  const landmarks = meanLandmarks.map((landmark) => landmarkOf(landmark, file, positions, deviations));
  const organs = parts.map((part): OrganMesh => ({
    organ: part.organ,
    mesh: {
      positions: positions.slice(3 * part.firstVertex, 3 * (part.firstVertex + part.vertices)),
      indices: file.indices
        .subarray(3 * part.firstTriangle, 3 * (part.firstTriangle + part.triangles))
        .map((v) => v - part.firstVertex),
    },
  }));
  return { positions, organs, landmarks };
}

type Vec3 = [number, number, number];

function landmarkOf(
  landmark: SsmLandmark,
  file: ShapeModelFile,
  positions: Float64Array,
  deviations: readonly number[],
): Landmark {
  const name = landmark.name as LandmarkName;
  if (!landmark.modes) {
    const v = landmark.vertex;
    const moved = [0, 1, 2].map((a) => landmark.position[a]! + positions[3 * v + a]! - file.mean[3 * v + a]!) as Vec3;
    return { ...withDirections(landmark), name, position: moved };
  }
  const mean = [...landmark.position, ...(landmark.normal ?? []), ...(landmark.axis ?? [])];
  const at = landmarksAt(mean, landmark.modes, deviations);
  const position = Array.from(at.subarray(0, 3)) as Vec3;
  let next = 3;
  const direction = (): Vec3 => {
    const v = Array.from(at.subarray(next, next + 3));
    next += 3;
    const length = Math.hypot(...v);
    return v.map((x) => x / length) as Vec3;
  };
  const normal = landmark.normal ? direction() : undefined;
  const axis = landmark.axis ? direction() : undefined;
  return { name, position, ...(normal ? { normal } : {}), ...(axis ? { axis } : {}) };
}

function withDirections(landmark: SsmLandmark): Pick<Landmark, 'normal' | 'axis'> {
  return {
    ...(landmark.normal ? { normal: [...landmark.normal] as Vec3 } : {}),
    ...(landmark.axis ? { axis: [...landmark.axis] as Vec3 } : {}),
  };
}
