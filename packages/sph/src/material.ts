import { det3, invert3, transposeTimesSelf3 } from './mat3';

/**
 * Elastic solid materials for the total Lagrangian solid (SI units). Stresses are second Piola–Kirchhoff (PK2),
 * computed from the deformation gradient F as a full 3×3 tensor; in 2D F has F_zz = 1 (plane strain), so the
 * out-of-plane stress S_zz is meaningful and enters the von Mises stress.
 */

/** Constitutive model. */
export type ElasticModel = 'linear_elastic' | 'neo_hookean';

/** Parameters of an elastic material. */
export interface ElasticMaterialOptions {
  /** Constitutive model: 'linear_elastic' (St Venant–Kirchhoff) or 'neo_hookean'. */
  model: ElasticModel;
  /** Reference density ρ₀, kg/m³. */
  rho0: number;
  /** Young's modulus E, Pa. */
  youngsModulus: number;
  /** Poisson's ratio ν (−1 < ν < 0.5). */
  poissonRatio: number;
}

/**
 * An isotropic elastic material.
 * - `linear_elastic`: St Venant–Kirchhoff, S = λ tr(E) I + 2G E with the Green–Lagrange strain E = ½(FᵀF − I):
 *   linear in strain, exact under large rotations (what SPHinXsys calls its linear elastic solid).
 * - `neo_hookean`: S = G (I − C⁻¹) + λ ln(J) C⁻¹ with C = FᵀF and J = det F (the SPHinXsys form).
 * Lamé constants from E and ν: G = E / (2(1 + ν)), λ = Eν / ((1 + ν)(1 − 2ν)); bulk modulus K = E / (3(1 − 2ν))
 * and the reference (acoustic) sound speed c₀ = √(K/ρ₀), as SPHinXsys sets them.
 */
export class ElasticMaterial {
  readonly model: ElasticModel;
  /** Reference density, kg/m³. */
  readonly rho0: number;
  /** Young's modulus, Pa. */
  readonly youngsModulus: number;
  /** Poisson's ratio. */
  readonly poissonRatio: number;
  /** Shear modulus G, Pa. */
  readonly shearModulus: number;
  /** First Lamé constant λ, Pa. */
  readonly lambda: number;
  /** Bulk modulus K, Pa. */
  readonly bulkModulus: number;
  /** Reference sound speed c₀ = √(K/ρ₀), m/s. */
  readonly soundSpeed: number;
  /** Scratch (C, C⁻¹): materials are used by one thread at a time. */
  private readonly scratch = new Float64Array(18);

  /** Validates the parameters and derives the moduli; throws a RangeError naming a bad parameter. */
  constructor(o: ElasticMaterialOptions) {
    if (!(o.rho0 > 0)) throw new RangeError('density must be positive');
    if (!(o.youngsModulus > 0)) throw new RangeError("Young's modulus must be positive");
    if (!(o.poissonRatio > -1 && o.poissonRatio < 0.5)) {
      throw new RangeError("Poisson's ratio must lie between -1 and 0.5 (exclusive)");
    }
    this.model = o.model;
    this.rho0 = o.rho0;
    this.youngsModulus = o.youngsModulus;
    this.poissonRatio = o.poissonRatio;
    const E = o.youngsModulus;
    const nu = o.poissonRatio;
    this.shearModulus = E / (2 * (1 + nu));
    this.lambda = (E * nu) / ((1 + nu) * (1 - 2 * nu));
    this.bulkModulus = E / (3 * (1 - 2 * nu));
    this.soundSpeed = Math.sqrt(this.bulkModulus / o.rho0);
  }

  /** PK2 stress S (Pa) for the deformation gradient at `F[fo]`, written to `out[oo]` (3×3 row-major). */
  stressPK2(F: Float64Array, fo: number, out: Float64Array, oo: number): void {
    const s = this.scratch;
    const G = this.shearModulus;
    const lambda = this.lambda;
    transposeTimesSelf3(F, fo, s, 0);
    if (this.model === 'linear_elastic') {
      // E = ½(C − I); S = λ tr(E) I + 2G E.
      const trE = 0.5 * (s[0]! + s[4]! + s[8]! - 3);
      for (let k = 0; k < 9; k++) out[oo + k] = G * (s[k]! - (k % 4 === 0 ? 1 : 0));
      out[oo] = out[oo]! + lambda * trE;
      out[oo + 4] = out[oo + 4]! + lambda * trE;
      out[oo + 8] = out[oo + 8]! + lambda * trE;
      return;
    }
    const J = det3(F, fo);
    invert3(s, 0, s, 9);
    const c = lambda * Math.log(J) - G;
    for (let k = 0; k < 9; k++) out[oo + k] = c * s[9 + k]!;
    out[oo] = out[oo]! + G;
    out[oo + 4] = out[oo + 4]! + G;
    out[oo + 8] = out[oo + 8]! + G;
  }
}

/**
 * Von Mises stress (Pa) of the Cauchy stress σ = F S Fᵀ / J, from F at `F[fo]` and the PK2 stress at `S[so]`:
 * √(½[(σxx − σyy)² + (σyy − σzz)² + (σzz − σxx)²] + 3(σxy² + σyz² + σzx²)).
 */
export function vonMisesStress(F: Float64Array, fo: number, S: Float64Array, so: number): number {
  const J = det3(F, fo);
  // σ_ab = Σ_cd F_ac S_cd F_bd / J, only the six independent entries.
  const sig = (a: number, b: number): number => {
    let v = 0;
    for (let c = 0; c < 3; c++) {
      const fac = F[fo + 3 * a + c]!;
      if (fac === 0) continue;
      for (let d = 0; d < 3; d++) v += fac * S[so + 3 * c + d]! * F[fo + 3 * b + d]!;
    }
    return v / J;
  };
  const xx = sig(0, 0);
  const yy = sig(1, 1);
  const zz = sig(2, 2);
  const xy = sig(0, 1);
  const yz = sig(1, 2);
  const zx = sig(2, 0);
  return Math.sqrt(0.5 * ((xx - yy) ** 2 + (yy - zz) ** 2 + (zz - xx) ** 2) + 3 * (xy * xy + yz * yz + zx * zx));
}

/**
 * Von Mises (equivalent) strain of the Green–Lagrange strain E = ½(FᵀF − I) at `F[fo]`: √(⅔ E′:E′) with E′ the
 * deviatoric part, so that an incompressible uniaxial stretch gives its axial strain. Dimensionless (mm/mm).
 */
export function vonMisesStrain(F: Float64Array, fo: number, scratch: Float64Array): number {
  transposeTimesSelf3(F, fo, scratch, 0);
  const exx = 0.5 * (scratch[0]! - 1);
  const eyy = 0.5 * (scratch[4]! - 1);
  const ezz = 0.5 * (scratch[8]! - 1);
  const exy = 0.5 * scratch[1]!;
  const eyz = 0.5 * scratch[5]!;
  const ezx = 0.5 * scratch[2]!;
  const m = (exx + eyy + ezz) / 3;
  const dev = (exx - m) ** 2 + (eyy - m) ** 2 + (ezz - m) ** 2 + 2 * (exy * exy + eyz * eyz + ezx * ezx);
  return Math.sqrt((2 / 3) * dev);
}
