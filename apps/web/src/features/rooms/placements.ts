import type { PlacementTransform, RoomScene, RoomView, SaveRoomScene } from '@insilico/contracts';

/** A device in the scene being edited: `key` is the saved placement's id, or a local one for a new placement. */
export interface EditedPlacement {
  key: string;
  versionId: string;
  versionName: string;
  transform: PlacementTransform;
  landmark: string | null;
}

/** What the scene page edits: the placements and the view settings. */
export interface SceneDraft {
  placements: EditedPlacement[];
  view: RoomView;
}

export function draftOf(scene: RoomScene): SceneDraft {
  return {
    placements: scene.placements.map((placement) => ({
      key: placement.id,
      versionId: placement.versionId,
      versionName: placement.versionName,
      transform: placement.transform,
      landmark: placement.landmark,
    })),
    view: { phase: scene.view.phase, hiddenOrgans: [...scene.view.hiddenOrgans] },
  };
}

/** The body of `PUT …/scene` (numbers rounded so that saving twice gives the same bytes). */
export function saveBodyOf(draft: SceneDraft): SaveRoomScene {
  return {
    view: { phase: draft.view.phase, hiddenOrgans: [...draft.view.hiddenOrgans].sort() },
    placements: draft.placements.map((placement) => ({
      versionId: placement.versionId,
      transform: roundTransform(placement.transform),
      landmark: placement.landmark,
    })),
  };
}

/** Whether the draft differs from what is saved (what Save would change). */
export function isDirty(saved: SceneDraft, draft: SceneDraft): boolean {
  return JSON.stringify(saveBodyOf(saved)) !== JSON.stringify(saveBodyOf(draft));
}

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** Positions to 1 µm, rotations and scales to 1e-6; the quaternion is normalised again after rounding. */
export function roundTransform(transform: PlacementTransform): PlacementTransform {
  const q = transform.quaternion.map((value) => round(value, 6));
  const norm = Math.hypot(...q) || 1;
  return {
    position: transform.position.map((value) => round(value, 3)) as PlacementTransform['position'],
    quaternion: q.map((value) => value / norm) as PlacementTransform['quaternion'],
    scale: transform.scale.map((value) => round(value, 6)) as PlacementTransform['scale'],
  };
}

/** The identity rotation at a point (mm), unit scale: where a newly added device appears. */
export function transformAt(position: readonly [number, number, number]): PlacementTransform {
  return { position: [...position], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] };
}
