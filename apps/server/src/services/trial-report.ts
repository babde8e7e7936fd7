import { criterionText, type PlacementRule, type TrialCounts, type TrialCriterion } from '@insilico/contracts';
import { drawHistogram, pdfNumber as number, pdfPercent as percent, pdfText, startPdfReport } from '../reports/pdf';
import { outcomeFigures, type OutcomeFigures, type ReportOutcomeInput } from './trial-report-figures';

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
  cohort: {
    name: string;
    description: string;
    size: number;
    modelVersion: string;
    meshModelVersion: string;
    populationSeed: number;
    populationSize: number;
    sampleSeed: number;
    criteria: Record<string, unknown>;
  };
  patients: { patientId: string; status: string; stage: string | null; error: string | null }[];
  outcomes: ReportOutcomeInput[];
  solver: {
    resolvedParameters: Record<string, unknown> | null;
    scenarioVersion: string | null;
    endTime_s: number | null;
  };
  provenance: {
    codeVersion: string;
    workers: string[];
    runs: { patientId: string; workerId: string | null; attempts: number | null; seconds: number | null }[];
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
    'sphere is +13.8 % at R/20 (the 5 % target is not met at this resolution). Friction coefficient 0.1 by default. ' +
    'Not validated against bench expansion tests.',
  particle:
    'Particle transport on the fluid solver (packages/sph): verification of the fluid kind applies; capture by ' +
    'contact with the walls or the device. Not validated against bench capture data.',
};

/**
 * The trial report as PDF bytes (pdfkit, A4, the standard Helvetica): set-up, cohort, outcome distributions with
 * histograms, pass fractions with their 95 % Wilson intervals, extreme patients, solver settings and verification,
 * provenance. The document's dates are the report's, so the same input gives the same pages.
 */
export async function renderTrialReport(input: TrialReportInput): Promise<Uint8Array> {
  const { doc, heading, line, finish } = startPdfReport({
    title: `Trial report: ${input.trial.name}`,
    author: input.generatedBy ?? 'insilico workspace',
    subject: 'In-silico trial report',
    date: input.generatedAt,
  });
  const t = input.trial;

  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(pdfText(`Trial report: ${t.name}`));
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#555555')
    .text(
      pdfText(
        `Generated ${input.generatedAt}${input.generatedBy ? ` by ${input.generatedBy}` : ''}. Synthetic virtual patients: ` +
          'results describe the device on a model population, not clinical evidence.',
      ),
    )
    .fillColor('black');

  heading('Set-up');
  line('Kind and resolution', `${t.kind}, ${t.resolution}`);
  line('Device version', t.deviceVersionName);
  if (t.basedOn) line('Re-run of', `${t.basedOn.name} (${t.basedOn.deviceVersionName})`);
  const rule = t.placement;
  line(
    'Placement rule',
    `snap to the ${rule.landmark.replaceAll('_', ' ')}, depth ${rule.depth_mm} mm along its normal` +
      (rule.annulusRange_mm ? `, annulus ${rule.annulusRange_mm.min}-${rule.annulusRange_mm.max} mm` : ''),
  );
  line('Parameters as set', Object.keys(t.parameters).length ? JSON.stringify(t.parameters) : 'the defaults');
  line('Started', `${t.createdAt}${t.createdBy ? ` by ${t.createdBy}` : ''}`);
  line('Status', t.status);
  const c = t.counts;
  line(
    'Patients',
    `${c.total}: ${c.done} done, ${c.failed} failed, ${c.cancelled} cancelled, ${c.running + c.queued} not finished`,
  );

  heading('Cohort');
  const h = input.cohort;
  line('Name', h.name);
  if (h.description) line('Description', h.description);
  line(
    'Population',
    `synthetic, model ${h.modelVersion} (meshes ${h.meshModelVersion}); ${h.size} patients sampled (seed ` +
      `${h.sampleSeed}) from a population of ${h.populationSize} (seed ${h.populationSeed})`,
  );
  line('Criteria', Object.keys(h.criteria).length ? JSON.stringify(h.criteria) : 'none');

  heading('Outcomes');
  const ids = input.patients.map((p) => p.patientId);
  const figures = input.outcomes.map((o) => ({ outcome: o, figures: outcomeFigures(ids, o) }));
  for (const { outcome, figures: f } of figures) outcomeSection(doc, outcome, f);

  heading('Acceptance');
  const judged = figures.filter((x) => x.outcome.criterion);
  if (judged.length === 0) doc.text('No acceptance criteria were set on this trial.');
  for (const { outcome, figures: f } of judged)
    doc.text(
      pdfText(
        `${outcome.label} ${criterionText(outcome.criterion as TrialCriterion, outcome.unit)}: ` +
          (f.pass
            ? `${f.pass.count} of ${f.pass.n} pass, ${percent(f.pass.fraction)} (95 % Wilson interval ` +
              `${percent(f.pass.lower)}-${percent(f.pass.upper)})`
            : 'no patient has a value') +
          (f.missing ? `; ${f.missing} without a value not judged` : ''),
      ),
    );

  heading('Patients that did not finish');
  const unfinished = input.patients.filter((p) => p.status !== 'done');
  if (unfinished.length === 0) doc.text('Every patient finished.');
  for (const p of unfinished)
    doc.text(pdfText(`${p.patientId}: ${p.status}${p.error ? ` (${p.stage ?? 'run'}: ${p.error})` : ''}`));

  heading('Solver settings and verification');
  line('Scenario version', input.solver.scenarioVersion ?? '-');
  line('Simulated time', input.solver.endTime_s === null ? '-' : `${input.solver.endTime_s} s`);
  if (input.solver.resolvedParameters)
    line('Resolved parameters (first patient)', JSON.stringify(input.solver.resolvedParameters));
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
        `${r.patientId}: ${r.seconds === null ? '-' : `${number(r.seconds)} s`}, worker ${r.workerId ?? '-'}, ` +
          `${r.attempts ?? '-'} attempt(s)`,
      ),
    );
  return finish();
}

/** One outcome: its summary line, extremes and a histogram drawn as bars. */
function outcomeSection(doc: PDFKit.PDFDocument, outcome: ReportOutcomeInput, f: OutcomeFigures): void {
  if (doc.y > 640) doc.addPage();
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(pdfText(`${outcome.label} (${outcome.unit})`));
  doc.font('Helvetica').fontSize(9).fillColor('#555555').text(pdfText(outcome.description)).fillColor('black');
  doc.fontSize(10);
  const s = f.summary;
  if (!s) {
    doc.text('No patient has a value.').moveDown(0.5);
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
        `Extreme patients: lowest ${f.lowest.patientId} (${number(f.lowest.value)}), ` +
          `highest ${f.highest.patientId} (${number(f.highest.value)})`,
      ),
    );
  if (f.histogram)
    drawHistogram(
      doc,
      f.histogram,
      outcome.criterion ? [`criterion ${criterionText(outcome.criterion, outcome.unit)}`] : [],
    );
}
