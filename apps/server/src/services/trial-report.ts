import {
  criterionText,
  placementRuleText,
  samePlacementRule,
  type PlacementRule,
  type TrialCounts,
  type TrialCriterion,
} from '@insilico/contracts';
import { drawHistogram, pdfNumber as number, pdfPercent as percent, pdfText, startPdfReport } from '../reports/pdf';
import { outcomeFigures, pearson, type OutcomeFigures, type ReportOutcomeInput } from './trial-report-figures';

/** The synthetic cohort a trial ran on, as the report describes it. */
export interface ReportCohort {
  kind: 'cohort';
  name: string;
  description: string;
  size: number;
  modelVersion: string;
  meshModelVersion: string;
  populationSeed: number;
  populationSize: number;
  sampleSeed: number;
  criteria: Record<string, unknown>;
}

/** The statistical shape model whose named instances a trial ran on, with each instance's mode scores (SD). */
export interface ReportSsm {
  kind: 'ssm';
  id: string;
  name: string;
  builtAt: string | null;
  codeVersion: string;
  meshModelVersion: string;
  seed: number;
  cohorts: string[];
  shapes: number;
  organs: string[];
  phase: string;
  correspondence: string;
  alignment: string;
  modeCount: number;
  modesKept: number | null;
  /** Σλ of the kept modes / Σλ; null when not known. */
  explainedKept: number | null;
  /** The modes any instance moves (1-based); every instance's scores on them, in the patients' order. */
  modes: number[];
  instances: { name: string; shape: string; shapeInWords: string; modeScores: number[] }[];
}

/** The user's own imaging cohort a trial ran on: de-identified images whose patient models our staff delivered. */
export interface ReportImaging {
  kind: 'imaging';
  id: string;
  name: string;
  /** Patients with delivered models. */
  patients: number;
  /** When the models were delivered and accepted (the cohort became ready). */
  readyAt: string | null;
}

/**
 * Device CI's comparison of the trial with the one it re-runs (`compareTrials`), patients named by their labels: per
 * outcome each patient's difference (this version − the earlier) where both have a value, and the verdict changes.
 */
export interface ReportComparison {
  basedOn: { name: string; deviceVersionName: string };
  outcomes: {
    label: string;
    unit: string;
    paired: number;
    meanDifference: number | null;
    criterion: TrialCriterion | null;
    /** In the re-run's patient order; only patients with a value on both versions. */
    differences: { label: string; difference: number }[];
    passToFail: string[];
    failToPass: string[];
  }[];
  leftOut: string[];
}

/**
 * Everything a trial report shows, gathered by TrialService from the database when the report job runs (so the PDF
 * is the trial as it stood then), structured-cloneable for the CPU pool.
 */
export interface TrialReportInput {
  generatedAt: string;
  generatedBy: string | null;
  trial: {
    id: string;
    name: string;
    status: string;
    kind: 'fluid' | 'solid' | 'particle';
    resolution: string;
    deviceVersionName: string;
    basedOn: { name: string; deviceVersionName: string } | null;
    createdAt: string;
    createdBy: string | null;
    placement: PlacementRule;
    parameters: Record<string, unknown>;
    counts: TrialCounts;
  };
  /**
   * What the patients are: a cohort's synthetic patients, the user's own imaging patients, or an SSM's named
   * instances (synthetic shapes).
   */
  subject: ReportCohort | ReportImaging | ReportSsm;
  /**
   * `label`: how the report names the patient (its id, or an instance's name and shape); `placement`: the rule it was
   * placed (or refused) by, which after a retry with a corrected rule is not every patient's (null: not placed yet).
   */
  patients: {
    patientId: string;
    label: string;
    status: string;
    stage: string | null;
    error: string | null;
    placement: PlacementRule | null;
  }[];
  outcomes: ReportOutcomeInput[];
  /** For a re-run (device CI) whose earlier trial is still there: the comparison with it; null otherwise. */
  comparison: ReportComparison | null;
  solver: {
    resolvedParameters: Record<string, unknown> | null;
    scenarioVersion: string | null;
    endTime_s: number | null;
  };
  provenance: {
    codeVersion: string;
    workers: string[];
    runs: { label: string; workerId: string | null; attempts: number | null; seconds: number | null }[];
  };
}

/**
 * What is known of each kind's verification (docs/validation.md, docs/decisions/sph-verification-convergence.md,
 * docs/decisions/simulations.md): the report states it with the solver settings, as ISO 5840 / ASME V&V 40 ask.
 */
export const kindVerification: Record<TrialReportInput['trial']['kind'], string> = {
  fluid:
    'Weakly compressible SPH (packages/sph). Verified against analytic Poiseuille, Womersley and Carreau channel ' +
    'flows with grid convergence by Celik et al. (2008) and code-to-code against published dam-break fronts (within ' +
    '3 %); the 3D tube centre-line speed stops at -2.8 %. Not validated against bench or clinical flow data.',
  solid:
    'Total-Lagrangian SPH solid (packages/sph). Verified on Lame cylinder and tension cases; Hertz contact of a ' +
    'sphere within 5 % at R/20 (force +3.8 %, contact radius +1.3 %, neo-Hookean). Friction coefficient 0.1 by ' +
    'default (Vad et al. 2010 fitted 0.08-0.16 for a stent-graft on a mock artery, not tissue). ' +
    'Not validated against bench expansion tests.',
  particle:
    'Particle transport on the fluid solver (packages/sph): verification of the fluid kind applies; capture by ' +
    'contact with the walls or the device. Not validated against bench capture data.',
};

/**
 * The trial report as PDF bytes (pdfkit, A4, the standard Helvetica): set-up, cohort (or shape model and its
 * instances), outcome distributions with histograms, pass fractions with their 95 % Wilson intervals (for a cohort;
 * chosen shapes are no sample: counts only), extreme patients, solver settings and verification, provenance. The
 * document's dates are the report's, so the same input gives the same pages.
 */
export async function renderTrialReport(input: TrialReportInput): Promise<Uint8Array> {
  const { doc, title, heading, line, finish } = startPdfReport({
    title: `Trial report: ${input.trial.name}`,
    author: input.generatedBy ?? 'insilico workspace',
    subject: 'In-silico trial report',
    date: input.generatedAt,
  });
  const t = input.trial;
  const subject = input.subject;
  const onShapes = subject.kind === 'ssm';
  const who = onShapes ? 'Instances' : 'Patients';

  title(
    `Trial report: ${t.name}`,
    `Generated ${input.generatedAt}${input.generatedBy ? ` by ${input.generatedBy}` : ''}. ` +
      (onShapes
        ? `Synthetic shapes from the statistical shape model ${subject.name}, not patients: results describe the ` +
          'device on shapes the model generates, not clinical evidence.'
        : subject.kind === 'imaging'
          ? `Your own imaging data (${subject.name}): de-identified images whose patient models our staff delivered. ` +
            'Results describe the device on these patients’ modelled anatomy, not clinical evidence.'
          : 'Synthetic virtual patients: results describe the device on a model population, not clinical evidence.'),
  );

  heading('Set-up');
  line('Kind and resolution', `${t.kind}, ${t.resolution}`);
  line('Device version', t.deviceVersionName);
  if (t.basedOn) line('Re-run of', `${t.basedOn.name} (${t.basedOn.deviceVersionName})`);
  placementLines(line, t.placement, input.patients);
  line('Parameters as set', Object.keys(t.parameters).length ? JSON.stringify(t.parameters) : 'the defaults');
  line('Started', `${t.createdAt}${t.createdBy ? ` by ${t.createdBy}` : ''}`);
  line('Status', t.status);
  const c = t.counts;
  line(
    who,
    `${c.total}: ${c.done} done, ${c.failed} failed, ${c.cancelled} cancelled, ${c.running + c.queued} not finished`,
  );

  if (subject.kind === 'cohort') {
    heading('Cohort');
    line('Name', subject.name);
    if (subject.description) line('Description', subject.description);
    line(
      'Population',
      `synthetic, model ${subject.modelVersion} (meshes ${subject.meshModelVersion}); ${subject.size} patients ` +
        `sampled (seed ${subject.sampleSeed}) from a population of ${subject.populationSize} (seed ${subject.populationSeed})`,
    );
    line('Criteria', Object.keys(subject.criteria).length ? JSON.stringify(subject.criteria) : 'none');
  } else if (subject.kind === 'imaging') {
    heading('Cohort');
    line('Name', subject.name);
    line(
      'Population',
      `your own imaging data (dataset ${subject.id}): ${subject.patients} de-identified patients, models delivered ` +
        `${subject.readyAt ?? '-'}; each placed at its first delivered phase. Sex, age and body size were removed ` +
        'by de-identification and are not known.',
    );
  } else ssmSection(doc, heading, line, subject);

  heading('Outcomes');
  const labels = input.patients.map((p) => p.label);
  const figures = input.outcomes.map((o) => ({ outcome: o, figures: outcomeFigures(labels, o) }));
  for (const { outcome, figures: f } of figures) {
    outcomeSection(doc, outcome, f, who);
    if (onShapes) modeCorrelationLine(doc, subject, outcome);
  }

  heading('Acceptance');
  const judged = figures.filter((x) => x.outcome.criterion);
  if (judged.length === 0) doc.text('No acceptance criteria were set on this trial.');
  for (const { outcome, figures: f } of judged)
    doc.text(
      pdfText(
        `${outcome.label} ${criterionText(outcome.criterion as TrialCriterion, outcome.unit)}: ` +
          (!f.pass
            ? `no ${onShapes ? 'instance' : 'patient'} has a value`
            : onShapes
              ? `${f.pass.count} of ${f.pass.n} instances pass, ${percent(f.pass.fraction)} (no interval: the ` +
                'instances are shapes chosen from the model, not a sample of a population)'
              : `${f.pass.count} of ${f.pass.n} pass, ${percent(f.pass.fraction)} (95 % Wilson interval ` +
                `${percent(f.pass.lower)}-${percent(f.pass.upper)})`) +
          (f.missing ? `; ${f.missing} without a value not judged` : ''),
      ),
    );

  if (input.comparison) comparisonSection(doc, heading, input.comparison, who);

  heading(`${who} that did not finish`);
  const unfinished = input.patients.filter((p) => p.status !== 'done');
  if (unfinished.length === 0) doc.text(`Every ${onShapes ? 'instance' : 'patient'} finished.`);
  for (const p of unfinished)
    doc.text(pdfText(`${p.label}: ${p.status}${p.error ? ` (${p.stage ?? 'run'}: ${p.error})` : ''}`));

  heading('Solver settings and verification');
  line('Scenario version', input.solver.scenarioVersion ?? '-');
  line('Simulated time', input.solver.endTime_s === null ? '-' : `${input.solver.endTime_s} s`);
  if (input.solver.resolvedParameters)
    line(
      `Resolved parameters (first ${onShapes ? 'instance' : 'patient'})`,
      JSON.stringify(input.solver.resolvedParameters),
    );
  line('Verification status', kindVerification[t.kind]);

  heading('Provenance');
  const p = input.provenance;
  line('Code version', p.codeVersion);
  line('Workers', p.workers.length ? p.workers.join(', ') : '-');
  const seconds = p.runs.flatMap((r) => (r.seconds === null ? [] : [r.seconds]));
  line(
    'Run times',
    seconds.length
      ? `${seconds.length} runs, ${number(seconds.reduce((s, v) => s + v, 0))} s in all, ` +
          `${number(Math.min(...seconds))}-${number(Math.max(...seconds))} s each`
      : '-',
  );
  doc.fontSize(8);
  for (const r of p.runs)
    doc.text(
      pdfText(
        `${r.label}: ${r.seconds === null ? '-' : `${number(r.seconds)} s`}, worker ${r.workerId ?? '-'}, ` +
          `${r.attempts ?? '-'} attempt(s)`,
      ),
    );
  return finish();
}

/** The shape model: its version and build, what it was built from, its modes, and the instances' mode scores. */
function ssmSection(
  doc: PDFKit.PDFDocument,
  heading: (text: string) => void,
  line: (label: string, value: string) => void,
  m: ReportSsm,
): void {
  heading('Shape model');
  line('Name', m.name);
  line(
    'Model',
    `statistical shape model ${m.id}, built ${m.builtAt ?? '-'} by code ${m.codeVersion} (meshes ` +
      `${m.meshModelVersion}, seed ${m.seed})`,
  );
  line(
    'Built from',
    `${m.shapes} synthetic patients of ${m.cohorts.join(', ') || '-'}; ${m.organs.join(', ').replaceAll('_', ' ')} ` +
      `at ${m.phase}; ${m.correspondence}; ${m.alignment}`,
  );
  line(
    'Modes',
    `${m.modeCount}` +
      (m.modesKept === null
        ? ''
        : `, ${m.modesKept} kept` + (m.explainedKept === null ? '' : ` (${percent(m.explainedKept)} of the variance)`)),
  );
  doc.text(
    pdfText(
      'The instances are synthetic shapes generated by the model (the mean moved by the standard deviations named ' +
        'per mode), not patients: no cohort statistics, outliers or population intervals apply to them.',
    ),
  );
  heading('Instances');
  for (const i of m.instances)
    doc.text(
      pdfText(
        `${i.name}: ${i.shapeInWords}` +
          (m.modes.length
            ? `; mode scores (SD) ${m.modes.map((k, j) => `mode ${k} ${i.modeScores[j]}`).join(', ')}`
            : ''),
      ),
    );
}

/** Pearson's r of the outcome with each moved mode's score over the instances with a value. */
function modeCorrelationLine(doc: PDFKit.PDFDocument, m: ReportSsm, outcome: ReportOutcomeInput): void {
  if (m.modes.length === 0) return;
  const rs = m.modes.map((k, j) => {
    const r = pearson(
      m.instances.map((i) => i.modeScores[j] ?? 0),
      outcome.values,
    );
    return `mode ${k} ${r === null ? '-' : number(r)}`;
  });
  doc
    .fontSize(9)
    .text(
      pdfText(`Pearson r with the mode scores: ${rs.join(', ')} (-: fewer than 3 instances with a value, or constant)`),
    )
    .fontSize(10)
    .moveDown(0.5);
}

/**
 * Device CI: per outcome the patients compared, the mean difference, a bar per patient of its difference (this
 * version − the earlier, up when higher now) and the patients whose verdict under the criterion changed.
 */
function comparisonSection(
  doc: PDFKit.PDFDocument,
  heading: (text: string) => void,
  c: ReportComparison,
  who: 'Patients' | 'Instances',
): void {
  const one = who === 'Instances' ? 'instance' : 'patient';
  heading(`Comparison with ${c.basedOn.name} (${c.basedOn.deviceVersionName})`);
  doc.text(
    pdfText(
      `Device CI: each ${one}'s outcome on this trial's device version minus its outcome on ` +
        `${c.basedOn.deviceVersionName}, where both runs have a value.`,
    ),
  );
  if (c.leftOut.length)
    doc.text(pdfText(`Not compared (their definitions differ between the two trials): ${c.leftOut.join(', ')}.`));
  doc.moveDown(0.5);
  for (const o of c.outcomes) {
    if (doc.y > 640) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(pdfText(`${o.label} (${o.unit})`));
    doc.font('Helvetica').fontSize(10);
    doc.text(
      pdfText(
        `${o.paired} ${o.paired === 1 ? one : `${one}s`} with values on both; mean difference ` +
          `${o.meanDifference === null ? '-' : number(o.meanDifference)} ${o.unit}`,
      ),
    );
    if (o.differences.length) drawDifferences(doc, o.differences);
    if (o.criterion) {
      const rule = criterionText(o.criterion, o.unit);
      doc.text(
        pdfText(
          `Verdict changes (${o.label} ${rule}): pass -> fail ${o.passToFail.length ? o.passToFail.join(', ') : 'none'}; ` +
            `fail -> pass ${o.failToPass.length ? o.failToPass.join(', ') : 'none'}`,
        ),
      );
    }
    doc.moveDown(0.5);
  }
}

/**
 * Per-patient differences as bars from a zero line (300 × 60 pt, up: higher on this version), the largest
 * magnitude under the axis and the first and last patients named; the text goes on below it.
 */
function drawDifferences(doc: PDFKit.PDFDocument, differences: readonly { label: string; difference: number }[]): void {
  const x0 = 70;
  const width = 300;
  const half = 30;
  const y0 = doc.y + 6;
  const zero = y0 + half;
  const top = Math.max(...differences.map((d) => Math.abs(d.difference)));
  const bar = width / differences.length;
  differences.forEach((d, i) => {
    const h = top ? (half * Math.abs(d.difference)) / top : 0;
    doc
      .rect(x0 + i * bar + 1, d.difference >= 0 ? zero - h : zero, Math.max(bar - 2, 0.5), h)
      .fillColor(d.difference >= 0 ? '#b5584a' : '#4a7ab5')
      .fill();
  });
  doc
    .fillColor('black')
    .strokeColor('#333333')
    .moveTo(x0, zero)
    .lineTo(x0 + width, zero)
    .stroke();
  doc.fontSize(8);
  doc.text(`+${number(top)}`, x0 + width + 8, y0, { lineBreak: false });
  doc.text('0', x0 + width + 8, zero - 4, { lineBreak: false });
  doc.text(`-${number(top)}`, x0 + width + 8, y0 + 2 * half - 8, { lineBreak: false });
  doc.text(pdfText(differences[0]!.label), x0, y0 + 2 * half + 2, { lineBreak: false });
  if (differences.length > 1)
    doc.text(pdfText(differences[differences.length - 1]!.label), x0 + width - 40, y0 + 2 * half + 2, {
      lineBreak: false,
    });
  doc.x = 50;
  doc.y = y0 + 2 * half + 16;
  doc.fontSize(10).moveDown(0.3);
}

/** One outcome: its summary line, extremes and a histogram drawn as bars. */
function outcomeSection(
  doc: PDFKit.PDFDocument,
  outcome: ReportOutcomeInput,
  f: OutcomeFigures,
  who: 'Patients' | 'Instances',
): void {
  if (doc.y > 640) doc.addPage();
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(pdfText(`${outcome.label} (${outcome.unit})`));
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(pdfText(outcome.description)).fillColor('black');
  doc.fontSize(10);
  const s = f.summary;
  if (!s) {
    doc.text(`No ${who === 'Instances' ? 'instance' : 'patient'} has a value.`).moveDown(0.5);
    return;
  }
  doc.text(
    pdfText(
      `n ${s.n}${f.missing ? ` (${f.missing} without a value)` : ''}, mean ${number(s.mean)}, SD ${number(s.sd)}, ` +
        `min ${number(s.min)}, Q1 ${number(s.q1)}, median ${number(s.median)}, Q3 ${number(s.q3)}, max ${number(s.max)}`,
    ),
  );
  if (f.lowest && f.highest)
    doc.text(
      pdfText(
        `Extreme ${who.toLowerCase()}: lowest ${f.lowest.patientId} (${number(f.lowest.value)}), ` +
          `highest ${f.highest.patientId} (${number(f.highest.value)})`,
      ),
    );
  if (f.histogram)
    drawHistogram(
      doc,
      f.histogram,
      outcome.criterion ? [`criterion ${criterionText(outcome.criterion, outcome.unit)}`] : [],
      who.toLowerCase(),
    );
}

/**
 * The placement rule: the trial's, and where a retry corrected it, which patients were placed (or refused) by which
 * rule — the rule now alone would misstate the patients placed before the correction.
 */
function placementLines(
  line: (label: string, value: string) => void,
  now: PlacementRule,
  patients: TrialReportInput['patients'],
): void {
  const said = (rule: PlacementRule) => `snap to the ${placementRuleText(rule)} (depth along the annulus normal)`;
  const earlier: { rule: PlacementRule; labels: string[] }[] = [];
  for (const p of patients) {
    if (!p.placement || samePlacementRule(p.placement, now)) continue;
    const group = earlier.find((g) => samePlacementRule(g.rule, p.placement!));
    if (group) group.labels.push(p.label);
    else earlier.push({ rule: p.placement, labels: [p.label] });
  }
  if (earlier.length === 0) {
    line('Placement rule', said(now));
    return;
  }
  const byNow = patients.filter((p) => p.placement && samePlacementRule(p.placement, now)).map((p) => p.label);
  line(
    'Placement rule now',
    `${said(now)}, set by a retry; placed by it: ${byNow.length ? byNow.join(', ') : 'none yet'}`,
  );
  for (const g of earlier) line('Placed by an earlier rule', `${said(g.rule)}: ${g.labels.join(', ')}`);
}
