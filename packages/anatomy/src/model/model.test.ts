import { choleskyInPlace } from '@insilico/stats';
import { describe, expect, it } from 'vitest';
import { PRIMARY_COUNT, PRIMARY_PARAMETERS } from './cardiac';
import { MODEL_VERSIONS, cardiacModel, isModelVersion, residualCorrelation } from './populationModels';
import { bsaDuBois_m2, bsaMosteller_m2, logNormalParameters } from './bodySize';
import { ellipseArea_mm2, ellipseDiameters_mm, ellipsePerimeter_mm } from './geometry';
import { multiplyLower } from './linalg';
import { ageGroupsOf, bodySizeGroup } from './demographics';

describe('linear algebra', () => {
  it('multiplies by the Cholesky factor of @insilico/stats, with L·Lᵀ = A', () => {
    const a = new Float64Array([4, 2, 0.4, 2, 5, 1, 0.4, 1, 3]);
    const l = choleskyInPlace(Float64Array.from(a), 3);
    for (let i = 0; i < 3; i += 1)
      for (let j = 0; j < 3; j += 1) {
        let sum = 0;
        for (let k = 0; k < 3; k += 1) sum += (l[i * 3 + k] ?? 0) * (l[j * 3 + k] ?? 0);
        expect(sum).toBeCloseTo(a[i * 3 + j] ?? 0, 12);
      }
    const out = multiplyLower(l, new Float64Array([1, 0, 0]), 3, new Float64Array(3));
    expect(out[0]).toBeCloseTo(2, 12);
  });

  it.each(MODEL_VERSIONS)('factors the residual correlation matrix of %s: lower triangular, L·Lᵀ = R', (version) => {
    const { cholesky, correlation } = cardiacModel(version);
    const n = PRIMARY_COUNT;
    for (let i = 0; i < n; i += 1)
      for (let j = 0; j < n; j += 1) {
        if (j > i) expect(cholesky[i * n + j]).toBe(0);
        let sum = 0;
        for (let k = 0; k < n; k += 1) sum += (cholesky[i * n + k] ?? 0) * (cholesky[j * n + k] ?? 0);
        expect(sum).toBeCloseTo(correlation[i * n + j] ?? 0, 12);
      }
  });
});

describe('residual correlation model', () => {
  const entries = [
    // [version, annulus–sinus, sinus–STJ]
    ['anatomy-population-1', 0.8, 0.88],
    ['anatomy-population-2', 0.79, 0.9],
  ] as const;
  it.each(entries)('%s is a valid correlation matrix with the documented key entries', (version, aSinus, sinusStj) => {
    const model = cardiacModel(version);
    const { correlation, cholesky } = model;
    for (let i = 0; i < PRIMARY_COUNT; i += 1) {
      expect(correlation[i * PRIMARY_COUNT + i]).toBe(1);
      for (let j = 0; j < PRIMARY_COUNT; j += 1)
        expect(correlation[i * PRIMARY_COUNT + j]).toBe(correlation[j * PRIMARY_COUNT + i]);
    }
    expect(cholesky.length).toBe(PRIMARY_COUNT * PRIMARY_COUNT);
    expect(residualCorrelation(model, 'aorticAnnulusDiameter_mm', 'lvotDiameter_mm')).toBe(0.95);
    expect(residualCorrelation(model, 'aorticAnnulusDiameter_mm', 'sinusOfValsalvaDiameter_mm')).toBe(aSinus);
    expect(residualCorrelation(model, 'sinusOfValsalvaDiameter_mm', 'sinotubularJunctionDiameter_mm')).toBe(sinusStj);
    // Path product: annulus → sinus → STJ.
    expect(residualCorrelation(model, 'aorticAnnulusDiameter_mm', 'sinotubularJunctionDiameter_mm')).toBeCloseTo(
      aSinus * sinusStj,
      12,
    );
    expect(model.primaryModels.map((primary) => primary.key)).toEqual([...PRIMARY_PARAMETERS]);
  });

  it('names every version it produces and refuses others', () => {
    expect(MODEL_VERSIONS.every(isModelVersion)).toBe(true);
    expect(isModelVersion('anatomy-population-0')).toBe(false);
    expect(() => cardiacModel('anatomy-population-0')).toThrow(RangeError);
  });

  it('v2 changes only the sinus and STJ margins and the two root edges', () => {
    const [v1, v2] = MODEL_VERSIONS.map((version) => cardiacModel(version));
    const changed = PRIMARY_PARAMETERS.filter((_, p) => v1?.primaryModels[p] !== v2?.primaryModels[p]);
    expect(changed).toEqual(['sinusOfValsalvaDiameter_mm', 'sinotubularJunctionDiameter_mm']);
    const edges = v2?.correlationTree.filter((edge, e) => edge !== v1?.correlationTree[e]).map((edge) => edge.child);
    expect(edges).toEqual(['sinusOfValsalvaDiameter_mm', 'sinotubularJunctionDiameter_mm']);
  });
});

describe('geometry', () => {
  it('reduces to the circle and matches numerical integration for an ellipse', () => {
    expect(ellipsePerimeter_mm(24, 24)).toBeCloseTo(Math.PI * 24, 10);
    expect(ellipseArea_mm2(24, 24)).toBeCloseTo((Math.PI / 4) * 24 * 24, 10);
    const a = 14;
    const b = 9;
    let length = 0;
    const steps = 200_000;
    for (let i = 0; i < steps; i += 1) {
      const t = ((i + 0.5) / steps) * 2 * Math.PI;
      length += Math.hypot(a * Math.sin(t), b * Math.cos(t)) * ((2 * Math.PI) / steps);
    }
    expect(Math.abs(ellipsePerimeter_mm(2 * a, 2 * b) - length) / length).toBeLessThan(1e-8);
    const d = ellipseDiameters_mm(23, 0.8, new Float64Array(2));
    expect(((d[0] ?? 0) + (d[1] ?? 0)) / 2).toBeCloseTo(23, 12);
    expect((d[1] ?? 0) / (d[0] ?? 1)).toBeCloseTo(0.8, 12);
  });
});

describe('body size', () => {
  it('computes BSA by Du Bois and Mosteller', () => {
    // 70 kg, 170 cm: Du Bois 1.810 m², Mosteller 1.818 m².
    expect(bsaDuBois_m2(70, 170)).toBeCloseTo(1.81, 2);
    expect(bsaMosteller_m2(70, 170)).toBeCloseTo(1.818, 3);
  });

  it('parameterises the BMI log-normal by its arithmetic mean and CV', () => {
    const { mu, sigma } = logNormalParameters(29.6, 0.25);
    expect(Math.exp(mu + (sigma * sigma) / 2)).toBeCloseTo(29.6, 10);
    expect(Math.sqrt(Math.exp(sigma * sigma) - 1)).toBeCloseTo(0.25, 10);
  });

  it('maps origin to a body-size group and ages to overlapping groups', () => {
    expect(bodySizeGroup('asia_pacific', 'asian')).toBe('asian');
    expect(bodySizeGroup('north_south_america', 'white')).toBe('white_americas');
    expect(bodySizeGroup('asia_pacific', 'white')).toBe('white_europe');
    expect(ageGroupsOf(18)).toEqual(['adult']);
    expect(ageGroupsOf(64)).toEqual(['adult']);
    expect(ageGroupsOf(65)).toEqual(['adult', 'geriatric']);
    expect(ageGroupsOf(75)).toEqual(['adult', 'geriatric']);
    expect(ageGroupsOf(76)).toEqual(['geriatric']);
    expect(ageGroupsOf(10)).toEqual(['pediatric']);
  });
});
