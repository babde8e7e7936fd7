import { damBreak } from './cases';
import { surgeFront } from './verification';

/**
 * Published numerical surge-front positions of the 2D dam break in the SPHinXsys / Marrone et al. geometry (column 2H
 * wide and H high at the left of a tank 5.366H long: Marrone, Antuono, Colagrossi, Colicchio, Le Touzé & Graziani,
 * "δ-SPH model for simulating violent impact flows", CMAME 200 (2011) 1526–1542; the same set-up as Colagrossi &
 * Landrini, JCP 191 (2003) 448–475), for a code-to-code check (issue 15 item 9).
 *
 * Source: TrixiParticles.jl's validation reference data, `validation/dam_break_2d/validation_reference_*.json`
 * (github.com/trixi-framework/TrixiParticles.jl, commit 62ac80f987a990fd96521fd2584df70d1974bb1a, 2025-10-08; solver
 * v0.4.1-51), set up by their `setup_marrone_2011.jl` after Marrone et al. 2011 and De Courcy et al., CMAME 420 (2024)
 * 116700: H = 0.6 m, g = 9.81, Wendland C2 kernel with h = 2 dp, c₀ = 50√(gH), weakly compressible SPH with
 * Molteni–Colagrossi density diffusion (δ = 0.1, the δ-SPH term) and Monaghan artificial viscosity α = 0.01, or EDAC;
 * dummy-particle walls with Adami pressure extrapolation. Front = the largest x of any fluid particle (their
 * `max_x_coord`, our `surgeFront`), divided by H, linearly interpolated from their output every 0.01/√(g/H) s to the
 * times T = t·√(2g/H) below (the times of our dam-break table). The papers themselves give the front only as figures;
 * these are the only tabulated numerical front positions for this geometry we found.
 */
export const DAM_BREAK_FRONT_REFERENCE = {
  T: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0],
  /** WCSPH (δ-SPH), H/400 (dp = 0.0015 m). */
  wcsph400: [2.174, 2.5475, 3.0381, 3.6081, 4.2331, 4.8965],
  /** EDAC, H/400. */
  edac400: [2.173, 2.5458, 3.0363, 3.6064, 4.23, 4.8905],
  /** WCSPH, H/80. */
  wcsph80: [2.1549, 2.5287, 3.015, 3.5795, 4.1986, 4.8513],
  /** WCSPH, H/40. */
  wcsph40: [2.1305, 2.5024, 2.9866, 3.5415, 4.1482, 4.7911],
} as const;

/**
 * Our front / H at the reference times T = t·√(2g/H) for the SPHinXsys dam break (`damBreak`, H = 1, g = 1) at spacing
 * `dp`, with the relative difference to each reference column.
 */
export function damBreakFrontComparison(dp: number): {
  T: readonly number[];
  front: number[];
  difference: Record<'wcsph400' | 'edac400' | 'wcsph80' | 'wcsph40', number[]>;
} {
  const sim = damBreak({ dp });
  const ref = DAM_BREAK_FRONT_REFERENCE;
  const front: number[] = [];
  for (const T of ref.T) {
    sim.run(T / Math.SQRT2);
    front.push(surgeFront(sim));
  }
  const diff = (col: readonly number[]): number[] => front.map((f, k) => f / col[k]! - 1);
  return {
    T: ref.T,
    front,
    difference: {
      wcsph400: diff(ref.wcsph400),
      edac400: diff(ref.edac400),
      wcsph80: diff(ref.wcsph80),
      wcsph40: diff(ref.wcsph40),
    },
  };
}
