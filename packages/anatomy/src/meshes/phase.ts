/** Phases of the heart cycle for which meshes are built: end-diastole, end-systole and cine frames between them. */

/** A phase of the cycle: end-diastole, end-systole, or frame `frame` (0-based) of `frameCount` cine frames. */
export type MeshPhase =
  | { readonly kind: 'end-diastole' }
  | { readonly kind: 'end-systole' }
  | { readonly kind: 'cine'; readonly frame: number; readonly frameCount: number };

/** Default cine frames from end-diastole (frame 0) to end-systole (last frame): 10 frames strictly between. */
export const CINE_FRAME_COUNT = 12;

/** The phases a patient record names ('end-diastole', 'end-systole') or a full phase object. */
export type MeshPhaseInput = MeshPhase | 'end-diastole' | 'end-systole';

/** Normalises a phase input to a {@link MeshPhase}; throws RangeError on a bad cine frame. */
export function toMeshPhase(input: MeshPhaseInput): MeshPhase {
  if (input === 'end-diastole' || input === 'end-systole') return { kind: input };
  if (input.kind === 'cine') {
    const { frame, frameCount } = input;
    if (!Number.isInteger(frameCount) || frameCount < 2 || !Number.isInteger(frame) || frame < 0 || frame >= frameCount)
      throw new RangeError(`cine frame ${frame} of ${frameCount} is out of range`);
  }
  return input;
}

/** The cine frames from end-diastole to end-systole (default {@link CINE_FRAME_COUNT}, at least 2). */
export function cineFrames(frameCount: number = CINE_FRAME_COUNT): MeshPhase[] {
  return Array.from({ length: frameCount }, (_, frame) => toMeshPhase({ kind: 'cine', frame, frameCount }));
}

/**
 * Contraction of a phase, 0 at end-diastole to 1 at end-systole (dimensionless). Cine frames are equally spaced in
 * time over ejection and follow a half-cosine, (1 − cos πτ)/2 with τ = frame/(frameCount − 1), so the volume curve
 * starts and ends with zero slope.
 */
export function contractionOf(phase: MeshPhase): number {
  if (phase.kind === 'end-diastole') return 0;
  if (phase.kind === 'end-systole') return 1;
  const tau = phase.frame / (phase.frameCount - 1);
  return (1 - Math.cos(Math.PI * tau)) / 2;
}

/** Short label of a phase for file names: `end-diastole`, `end-systole`, `cine-03of12` (frames 1-based). */
export function phaseLabel(phase: MeshPhase): string {
  if (phase.kind !== 'cine') return phase.kind;
  const width = String(phase.frameCount).length < 2 ? 2 : String(phase.frameCount).length;
  return `cine-${String(phase.frame + 1).padStart(width, '0')}of${String(phase.frameCount).padStart(width, '0')}`;
}
