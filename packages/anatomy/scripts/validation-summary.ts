// Prints the tables of docs/validation.md ("Synthetic virtual population") from a generated population:
//   node --import tsx packages/anatomy/scripts/validation-summary.ts [count] [seed]
import { PARAMETER_DEFINITIONS, generatePopulation, type SyntheticPatient } from '@insilico/anatomy';

const count = Number(process.argv[2] ?? 20_000);
const seed = Number(process.argv[3] ?? 20240401);
const patients = generatePopulation({ seed, count }).patients;

const stats = (xs: number[]): { mean: number; sd: number } => {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
  return { mean, sd };
};
const value = (p: SyntheticPatient, group: 'body' | 'cardiac', key: string): number =>
  Number((p[group] as unknown as Record<string, number>)[key]);
const fmt = (x: number, d: number): string => x.toFixed(d);
const corr = (
  g: SyntheticPatient[],
  a: (p: SyntheticPatient) => number,
  b: (p: SyntheticPatient) => number,
): number => {
  const xa = g.map(a);
  const xb = g.map(b);
  const sa = stats(xa);
  const sb = stats(xb);
  let s = 0;
  for (let i = 0; i < xa.length; i += 1) s += ((xa[i] ?? 0) - sa.mean) * ((xb[i] ?? 0) - sb.mean);
  return s / (xa.length - 1) / (sa.sd * sb.sd);
};

const healthy = patients.filter((p) => p.pathologies.length === 0);
const women = healthy.filter((p) => p.sex === 'female');
const men = healthy.filter((p) => p.sex === 'male');
const oldWomen = women.filter((p) => p.age_years >= 65);
const oldMen = men.filter((p) => p.age_years >= 65);
console.log(
  `seed ${seed}, ${count} patients; healthy women ${women.length} (65+: ${oldWomen.length}), men ${men.length} (65+: ${oldMen.length})\n`,
);
console.log(
  '| parameter | unit | healthy women, all ages | healthy men, all ages | healthy women 65+ | healthy men 65+ |',
);
console.log('|---|---|---|---|---|---|');
for (const d of PARAMETER_DEFINITIONS) {
  const cells = [women, men, oldWomen, oldMen].map((g) => {
    const s = stats(g.map((p) => value(p, d.group, d.key)));
    const dec = Math.max(d.decimals, 1);
    return `${fmt(s.mean, dec)} ± ${fmt(s.sd, dec)}`;
  });
  console.log(`| ${d.label} | ${d.unit} | ${cells.join(' | ')} |`);
}
const idx = (g: SyntheticPatient[], f: (p: SyntheticPatient) => number): string => {
  const s = stats(g.map((p) => f(p) / p.body.bsaDuBois_m2));
  return `${fmt(s.mean, 1)} ± ${fmt(s.sd, 1)}`;
};
console.log('\nIndexed (per m² BSA Du Bois), healthy women | men:');
console.log(`LVEDVi ${idx(women, (p) => p.cardiac.lvEdv_mL)} | ${idx(men, (p) => p.cardiac.lvEdv_mL)}`);
console.log(`LVMi ${idx(women, (p) => p.cardiac.lvMass_g)} | ${idx(men, (p) => p.cardiac.lvMass_g)}`);
console.log(`LAVi ${idx(women, (p) => p.cardiac.laVolume_mL)} | ${idx(men, (p) => p.cardiac.laVolume_mL)}`);
console.log(`RVEDVi ${idx(women, (p) => p.cardiac.rvEdv_mL)} | ${idx(men, (p) => p.cardiac.rvEdv_mL)}`);
console.log(
  `MAAi cm2/m2 ${idx(women, (p) => p.cardiac.mitralAnnulusArea_mm2 / 100)} | ${idx(men, (p) => p.cardiac.mitralAnnulusArea_mm2 / 100)}`,
);

console.log('\nCorrelations (healthy women | men, all ages; 65+):');
const pairs: [string, (p: SyntheticPatient) => number, (p: SyntheticPatient) => number][] = [
  ['annulus–LVOT', (p) => p.cardiac.aorticAnnulusDiameter_mm, (p) => p.cardiac.lvotDiameter_mm],
  ['annulus–sinus', (p) => p.cardiac.aorticAnnulusDiameter_mm, (p) => p.cardiac.sinusOfValsalvaDiameter_mm],
  ['sinus–STJ', (p) => p.cardiac.sinusOfValsalvaDiameter_mm, (p) => p.cardiac.sinotubularJunctionDiameter_mm],
  ['STJ–ascending aorta', (p) => p.cardiac.sinotubularJunctionDiameter_mm, (p) => p.cardiac.ascendingAortaDiameter_mm],
  ['height–weight', (p) => p.body.height_cm, (p) => p.body.weight_kg],
];
for (const [name, a, b] of pairs)
  console.log(`${name}: ${[women, men, oldWomen, oldMen].map((g) => fmt(corr(g, a, b), 3)).join(' | ')}`);

console.log('\nPathology prevalence (all patients; under 65 | 65+):');
const young = patients.filter((p) => p.age_years < 65);
const old = patients.filter((p) => p.age_years >= 65);
for (const key of [
  'aortic_valve_insufficiency_stenosis',
  'mitral_valve_insufficiency',
  'heart_failure',
  'tricuspid_valve_insufficiency',
  'pulmonary_valve_insufficiency',
] as const) {
  const share = (g: readonly SyntheticPatient[]): string =>
    `${fmt((100 * g.filter((p) => p.pathologies.includes(key)).length) / g.length, 1)} %`;
  console.log(`${key}: ${share(patients)} (${share(young)} | ${share(old)})`);
}
console.log(
  `none: ${fmt((100 * healthy.length) / patients.length, 1)} %; two or more: ${fmt((100 * patients.filter((p) => p.pathologies.length >= 2).length) / patients.length, 1)} %`,
);
const as = patients.filter((p) => p.pathologies.includes('aortic_valve_insufficiency_stenosis'));
console.log(
  `AS: AVA ${fmt(stats(as.map((p) => p.cardiac.aorticValveArea_cm2)).mean, 2)} cm², LVH ${fmt((100 * as.filter((p) => p.cardiac.lvHypertrophy).length) / as.length, 1)} %`,
);
const mr = patients.filter(
  (p) => p.pathologies.includes('mitral_valve_insufficiency') && !p.pathologies.includes('heart_failure'),
);
console.log(
  `MR (without HF): MAAi ${idx(mr, (p) => p.cardiac.mitralAnnulusArea_mm2 / 100)} cm²/m² vs healthy ${idx(healthy, (p) => p.cardiac.mitralAnnulusArea_mm2 / 100)}`,
);
const hf = patients.filter((p) => p.pathologies.includes('heart_failure'));
console.log(
  `HFrEF: LVEF ${fmt(stats(hf.map((p) => p.cardiac.lvEf_percent)).mean, 1)} % (max ${fmt(Math.max(...hf.map((p) => p.cardiac.lvEf_percent)), 1)}), LVEDVi ${idx(hf, (p) => p.cardiac.lvEdv_mL)} vs healthy ${idx(healthy, (p) => p.cardiac.lvEdv_mL)}`,
);
const tr = patients.filter((p) => p.pathologies.includes('tricuspid_valve_insufficiency'));
console.log(
  `TR: TA ${fmt(stats(tr.map((p) => p.cardiac.tricuspidAnnulusDiameter_mm)).mean, 1)} mm, ≥ 40 mm ${fmt((100 * tr.filter((p) => p.cardiac.tricuspidAnnulusDiameter_mm >= 40).length) / tr.length, 1)} %`,
);
const pr = patients.filter((p) => p.pathologies.includes('pulmonary_valve_insufficiency'));
console.log(`PR: RVEDVi ${idx(pr, (p) => p.cardiac.rvEdv_mL)} vs healthy ${idx(healthy, (p) => p.cardiac.rvEdv_mL)}`);
const area = (g: SyntheticPatient[]): number => stats(g.map((p) => p.cardiac.aorticAnnulusArea_mm2)).mean;
const asianOld = old.filter((p) => p.originEthnicity === 'asian');
const whiteOld = old.filter((p) => p.originEthnicity === 'white');
console.log(
  `annulus area 65+: asian ${fmt(area(asianOld), 0)} vs white ${fmt(area(whiteOld), 0)} mm² (ratio ${fmt(area(asianOld) / area(whiteOld), 3)}); BSA ${fmt(stats(asianOld.map((p) => p.body.bsaDuBois_m2)).mean, 2)} vs ${fmt(stats(whiteOld.map((p) => p.body.bsaDuBois_m2)).mean, 2)}`,
);
