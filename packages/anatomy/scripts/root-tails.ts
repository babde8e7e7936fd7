// Compares the generated aortic root with the published figures it is calibrated against (issue 23), per model
// version: node --import tsx packages/anatomy/scripts/root-tails.ts [count] [seed]
import {
  MODEL_VERSIONS,
  cardiacModel,
  covariatesOf,
  generatePopulation,
  primaryMoments,
  type SyntheticPatient,
} from '@insilico/anatomy';
import {
  DEVEREUX_2012_SINUS_SEE_MM,
  DEVEREUX_AGE_RANGE_YEARS,
  HAMDAN_2017_TAVI_CT,
  ROOT_CORRELATIONS_AT_TAVI_AGES,
  TAVI_AGE_MIN_YEARS,
} from '../src/model/aorticRootSources';
import { rootStatistics } from '../src/population/rootStatistics';

const count = Number(process.argv[2] ?? 40_000);
const seed = Number(process.argv[3] ?? 20240401);
for (const modelVersion of MODEL_VERSIONS) {
  const patients = generatePopulation({ seed, count, modelVersion }).patients;
  console.log(`\n${modelVersion}, seed ${seed}, ${count} patients`);
  for (const sex of ['female', 'male'] as const) {
    const old = patients.filter((p: SyntheticPatient) => p.sex === sex && p.age_years >= TAVI_AGE_MIN_YEARS);
    const young = patients.filter(
      (p: SyntheticPatient) =>
        p.sex === sex && p.age_years >= DEVEREUX_AGE_RANGE_YEARS.min && p.age_years <= DEVEREUX_AGE_RANGE_YEARS.max,
    );
    const stats = rootStatistics(old);
    console.log(`  ${sex}, age ≥ ${TAVI_AGE_MIN_YEARS} (n = ${old.length}), generated vs Hamdan 2017:`);
    for (const [key, source] of Object.entries(HAMDAN_2017_TAVI_CT[sex])) {
      const s = stats.moments(key as keyof typeof HAMDAN_2017_TAVI_CT.female);
      console.log(
        `    ${key}: ${s.mean.toFixed(2)} ± ${s.sd.toFixed(2)} vs ${source.mean} ± ${source.sd}` +
          ` (mean ${(100 * (s.mean / source.mean - 1)).toFixed(1)} %, SD ${(100 * (s.sd / source.sd - 1)).toFixed(1)} %)`,
      );
    }
    for (const { a, b, r } of ROOT_CORRELATIONS_AT_TAVI_AGES)
      console.log(`    r(${a}, ${b}) = ${stats.correlation(a, b).toFixed(3)} vs ${r}`);
    // The residual ρ(annulus, sinus) that gives the published marginal r in this group: r·σa·σs = cov(ca, cs) + ρ·E[sa·ss].
    const model = cardiacModel(modelVersion);
    const [annulus, sinus] = [0, 2].map((p) => model.primaryModels[p]!);
    const moments = old.map((p) => {
      const x = covariatesOf(p);
      return [primaryMoments(annulus!, x), primaryMoments(sinus!, x)] as const;
    });
    const avg = (f: (m: (typeof moments)[number]) => number): number =>
      moments.reduce((s, m) => s + f(m), 0) / moments.length;
    const [ma, ms] = [avg((m) => m[0].mean), avg((m) => m[1].mean)];
    const covCenters = avg((m) => (m[0].mean - ma) * (m[1].mean - ms));
    const varA = avg((m) => (m[0].mean - ma) ** 2 + m[0].scale ** 2);
    const varS = avg((m) => (m[1].mean - ms) ** 2 + m[1].scale ** 2);
    const scaleProduct = avg((m) => m[0].scale * m[1].scale);
    const required = (0.8 * Math.sqrt(varA * varS) - covCenters) / scaleProduct;
    console.log(
      `    residual ρ(annulus, sinus) for r = 0.80 (model targets, before the guards): ${required.toFixed(3)}` +
        ` (covariate part of r: ${(covCenters / Math.sqrt(varA * varS)).toFixed(3)})`,
    );
    const all = rootStatistics(patients.filter((p: SyntheticPatient) => p.sex === sex));
    console.log(
      `  ${sex}, all ages: r(annulus, sinus) = ${all.correlation('aorticAnnulusDiameter_mm', 'sinusOfValsalvaDiameter_mm').toFixed(3)}`,
    );
    console.log(
      `  ${sex}, ${DEVEREUX_AGE_RANGE_YEARS.min}–${DEVEREUX_AGE_RANGE_YEARS.max} y (n = ${young.length}): sinus SEE on age, BSA ` +
        `${rootStatistics(young).sinusRegressionSee().toFixed(2)} vs Devereux ${DEVEREUX_2012_SINUS_SEE_MM}`,
    );
  }
}
