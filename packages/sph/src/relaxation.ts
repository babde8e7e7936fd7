import { CellLinkedList } from './cellList';
import type { Shape } from './geometry';
import { WendlandC2, smoothingLength } from './kernel';
import { LevelSet } from './levelSet';
import { NeighbourList, buildNeighbours } from './neighbours';
import type { ParticleArrays } from './particles';

/** Options of `relaxParticles`. */
export interface RelaxationOptions {
  /** Particle spacing the particles were filled at, m. */
  dp: number;
  /** Relaxation steps (default 500; each moves a particle by at most h/32). */
  steps?: number;
  /** Called after every step with the step number (1-based) and the largest residue, 1/m. */
  onStep?: (step: number, maxResidue: number) => void;
}

/** What a relaxation did. */
export interface RelaxationResult {
  steps: number;
  /** Largest residue |a_i| (1/m) of the first and of the last step. */
  firstResidue: number;
  lastResidue: number;
}

/** Default number of relaxation steps. */
export const DEFAULT_RELAXATION_STEPS = 500;

/**
 * Moves lattice particles of `shape` (filled at spacing dp) towards a uniform distribution that conforms to the
 * shape's surface, after SPHinXsys's particle relaxation (Zhu, Zhang, Yu & Hu, "A CAD-compatible body-fitted particle
 * generator for arbitrarily complex geometry and its application to wave-structure interaction", J. Hydrodyn. 2021;
 * `relax_dynamics` of SPHinXsys):
 *
 * - a pressure-like residue with a constant background pressure, a_i = −2 Σ_j ∇W_ij V_j − 2 ∫_outside ∇W dV, whose
 *   second term (from the shape's level set) stands in for the missing neighbours beyond the surface, so a
 *   particle near the surface is pushed neither out of the shape nor away from it once the spacing is uniform;
 * - a step x_i += a_i · ½ · 0.0625 h / max_j |a_j| (at most h/32 per step);
 * - the surface bound: a particle closer than dp/2 to the surface (or outside) is moved back along the normal to
 *   dp/2 inside.
 *
 * Volumes stay dp^dim. The shape needs a signed distance (`Shape.distance`). Returns the residues of the first and
 * last step. Particles keep their order and ids; velocities and other fields are left alone.
 */
export function relaxParticles(particles: ParticleArrays, shape: Shape, options: RelaxationOptions): RelaxationResult {
  const { dp } = options;
  const steps = options.steps ?? DEFAULT_RELAXATION_STEPS;
  const dim = particles.dim;
  const n = particles.count;
  const h = smoothingLength(dp);
  const kernel = new WendlandC2(h, dim);
  const margin = kernel.cutoff + dp;
  const levelSet = new LevelSet(shape, dim, 0.5 * dp, margin);
  const lower: [number, number, number] = [0, 1, 2].map((a) => (a < dim ? shape.lower[a]! - margin : 0)) as [
    number,
    number,
    number,
  ];
  const upper: [number, number, number] = [0, 1, 2].map((a) => (a < dim ? shape.upper[a]! + margin : 0)) as [
    number,
    number,
    number,
  ];
  const cells = new CellLinkedList({ lower, upper, periodic: [false, false, false] }, kernel.cutoff, n, dim);
  const list = new NeighbourList(n, n * (dim === 2 ? 32 : 96));
  const ax = new Float64Array(n);
  const ay = new Float64Array(n);
  const az = new Float64Array(n);
  const g: [number, number, number] = [0, 0, 0];
  const { x, y, z, vol } = particles;
  // Particles this close to the surface (by the nearest node) feel the outside integral or the bound.
  const nearSupport = -(kernel.cutoff + levelSet.spacing);
  const bound = 0.5 * dp;
  const nearBound = -(bound + levelSet.spacing);
  let firstResidue = 0;
  let lastResidue = 0;
  for (let step = 1; step <= steps; step++) {
    cells.rebuild(particles);
    buildNeighbours(particles, particles, cells, kernel, true, list);
    let maxResidue = 0;
    for (let i = 0; i < n; i++) {
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (let k = list.start[i]!; k < list.end[i]!; k++) {
        const f = list.dw[k]! * vol[list.j[k]!]!;
        sx += f * list.ex[k]!;
        sy += f * list.ey[k]!;
        sz += f * list.ez[k]!;
      }
      if (levelSet.nearest(x[i]!, y[i]!, z[i]!) > nearSupport) {
        levelSet.kernelGradientOutside(x[i]!, y[i]!, z[i]!, kernel, g);
        sx += g[0];
        sy += g[1];
        sz += g[2];
      }
      ax[i] = -2 * sx;
      ay[i] = -2 * sy;
      az[i] = dim === 3 ? -2 * sz : 0;
      maxResidue = Math.max(maxResidue, Math.hypot(ax[i]!, ay[i]!, az[i]!));
    }
    if (step === 1) firstResidue = maxResidue;
    lastResidue = maxResidue;
    const scale = (0.5 * 0.0625 * h) / (maxResidue + Number.MIN_VALUE);
    for (let i = 0; i < n; i++) {
      x[i] = x[i]! + ax[i]! * scale;
      y[i] = y[i]! + ay[i]! * scale;
      z[i] = z[i]! + az[i]! * scale;
      if (levelSet.nearest(x[i]!, y[i]!, z[i]!) <= nearBound) continue;
      const phi = levelSet.signedDistance(x[i]!, y[i]!, z[i]!);
      if (phi <= -bound) continue;
      levelSet.normal(x[i]!, y[i]!, z[i]!, g);
      x[i] = x[i]! - (phi + bound) * g[0];
      y[i] = y[i]! - (phi + bound) * g[1];
      if (dim === 3) z[i] = z[i]! - (phi + bound) * g[2];
    }
    options.onStep?.(step, maxResidue);
  }
  return { steps, firstResidue, lastResidue };
}
