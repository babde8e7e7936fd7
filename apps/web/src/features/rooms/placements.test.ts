import { describe, expect, it } from 'vitest';
import type { RoomScene } from '@insilico/contracts';
import { draftOf, isDirty, roundTransform, saveBodyOf, transformAt } from './placements';

const scene = {
  placements: [
    {
      id: 'p1',
      versionId: 'v1',
      versionName: 'Valve 1',
      transform: { position: [1, 2, 3], quaternion: [0, 0, 0, 1], scale: [1, 1, 1] },
      landmark: 'mitral_annulus',
    },
  ],
  view: { phase: 'end-diastole', hiddenOrgans: ['rib_cage', 'left_lung'] },
} as unknown as RoomScene;

describe('scene drafts', () => {
  it('is clean as loaded, whatever the order of hidden organs', () => {
    const saved = draftOf(scene);
    const draft = draftOf(scene);
    draft.view.hiddenOrgans.reverse();
    expect(isDirty(saved, draft)).toBe(false);
  });

  it('is dirty after a move, a new device or another phase', () => {
    const saved = draftOf(scene);
    const moved = draftOf(scene);
    moved.placements[0]!.transform = { ...moved.placements[0]!.transform, position: [1, 2, 3.5] };
    expect(isDirty(saved, moved)).toBe(true);
    const added = draftOf(scene);
    added.placements.push({ ...added.placements[0]!, key: 'new-1', transform: transformAt([0, 0, 0]) });
    expect(isDirty(saved, added)).toBe(true);
    const phase = draftOf(scene);
    phase.view.phase = 'end-systole';
    expect(isDirty(saved, phase)).toBe(true);
  });

  it('ignores float noise below the rounding', () => {
    const saved = draftOf(scene);
    const noisy = draftOf(scene);
    noisy.placements[0]!.transform = { ...noisy.placements[0]!.transform, position: [1.0000001, 2, 3] };
    expect(isDirty(saved, noisy)).toBe(false);
  });

  it('rounds and renormalises the quaternion so the server accepts it', () => {
    const rounded = roundTransform({
      position: [1.23456789, 0, 0],
      quaternion: [0.1234567891, 0.2, 0.3, 0.9],
      scale: [1.0000001, 2, 3],
    });
    expect(rounded.position[0]).toBe(1.235);
    expect(Math.hypot(...rounded.quaternion)).toBeCloseTo(1, 9);
    expect(rounded.scale[0]).toBe(1);
    expect(saveBodyOf(draftOf(scene)).view.hiddenOrgans).toEqual(['left_lung', 'rib_cage']);
  });
});
