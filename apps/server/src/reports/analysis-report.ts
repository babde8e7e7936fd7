import type { AnalysisSettings, CohortParameterTable, MeasurementOrder, Representativeness } from '@insilico/contracts';
import { keysInUse, measurementParameter, rowsWithoutValues } from '@insilico/contracts';
import { matrixFromColumns, runAnalysisJob, type AnalysisOutcome, type Proportion } from '@insilico/stats';
import { histogram } from '../services/trial-report-figures';
import {
  drawHistogram,
  drawOverlaidDistributions,
  drawQqPlot,
  pdfNumber as number,
  pdfPercent as percent,
  pdfText,
  startPdfReport,
} from './pdf';

/** A measurement the analysis reads: the definition version it was measured with and how its values came about. */
export interface ReportMeasurement {
  /** `measurement.<order>.<index>`. */
  key: string;
  name: string;
  version: number;
  unit: string;
  phase: string;
  orderedAt: string;
  orderedBy: string | null;
  /** Patients whose automatic construction failed and who have no corrected value. */
  failed: number;
  /** Patients whose value was corrected by hand (landmarks or plane). */
  corrected: number;
}

/**
 * Everything the population analysis report shows (issue 23), gathered by AnalysisReportService when the report
 * is asked for; structured-cloneable for the CPU pool, which runs the analysis and lays out the PDF.
 */
export interface AnalysisReportInput {
  generatedAt: string;
  generatedBy: string | null;
  codeVersion: string;
  analysis: {
    id: string;
    name: string;
    revision: number;
    updatedAt: string;
    parameters: string[];
    /** Parameters of the saved analysis that are no longer available (a trial deleted since). */
    droppedParameters: string[];
    settings: AnalysisSettings;
    excluded: string[];
  };
  /** `source` imaging: the delivered patients of the user's own imaging data (issue 19); absent: virtual. */
  cohort: { name: string; modelVersion: string; synthetic: boolean; source?: 'virtual' | 'imaging' };
  /** The cohort's table with the trial outcomes and measurements the page shows (NaN: no value). */
  table: CohortParameterTable;
  measurements: ReportMeasurement[];
  /** The comparison with a reference population, when the caller gave one. */
  representativeness: Representativeness | null;
}

/** The measurements of the orders that the analysis reads (an analysed parameter or a device-fit range). */
export function measurementsUsed(
  orders: readonly MeasurementOrder[],
  analysis: Pick<AnalysisReportInput['analysis'], 'parameters' | 'settings'>,
): ReportMeasurement[] {
  const used = new Set(keysInUse(analysis.parameters, analysis.settings));
  return orders.flatMap((order) =>
    order.measurements.flatMap((m, j) => {
      const key = measurementParameter(order.id, j);
      if (!used.has(key)) return [];
      const cells = order.patients.map((p) => p.cells[j]);
      return [
        {
          key,
          name: m.name,
          version: m.version,
          unit: m.unit,
          phase: m.phase,
          orderedAt: order.createdAt,
          orderedBy: order.createdBy?.fullName ?? null,
          failed: cells.filter((c) => c?.value === null).length,
          corrected: cells.filter((c) => c && c.corrected !== null).length,
        },
      ];
    }),
  );
}

/** The rows an analysis leaves out: excluded by a user, and those without a value of a parameter in use. */
export function leftOutRows(input: Pick<AnalysisReportInput, 'analysis' | 'table'>): {
  excluded: number[];
  withoutValue: number[];
} {
  const rowOf = new Map(input.table.patients.map((id, row) => [id, row]));
  const excluded = input.analysis.excluded.flatMap((id) => {
    const row = rowOf.get(id);
    return row === undefined ? [] : [row];
  });
  const taken = new Set(excluded);
  const withoutValue = rowsWithoutValues(
    input.table,
    keysInUse(input.analysis.parameters, input.analysis.settings),
  ).filter((row) => !taken.has(row));
  return { excluded, withoutValue };
}

/** The analysis as the page runs it (same job, same left-out patients). */
export function runReportAnalysis(input: Pick<AnalysisReportInput, 'analysis' | 'table'>): AnalysisOutcome {
  const { excluded, withoutValue } = leftOutRows(input);
  // The matrix holds finite numbers only: a missing value stands as 0 there and its patient is left out.
  const matrix = matrixFromColumns(
    input.table.values.map((v) => Float64Array.from(v, (x) => (Number.isNaN(x) ? 0 : x))),
  );
  return runAnalysisJob({
    matrix,
    keys: input.table.parameters.map((p) => p.key),
    parameters: input.analysis.parameters,
    excludedRows: [...excluded, ...withoutValue],
    settings: input.analysis.settings,
  });
}

const listed = 30;
const patientList = (ids: readonly string[]) =>
  ids.length === 0
    ? 'none'
    : `${ids.slice(0, listed).join(', ')}${ids.length > listed ? ` and ${ids.length - listed} more` : ''}`;
const proportion = (p: Proportion) =>
  `${p.count} of ${p.n}, ${percent(p.fraction)} (95 % Wilson interval ${percent(p.lower)}-${percent(p.upper)})`;
const groupNote: Record<string, string> = {
  body: '',
  cardiac: '',
  outcome: ' - trial outcome',
  measurement: ' - measured on the anatomy',
};

/**
 * The population analysis report as PDF bytes (pdfkit through reports/pdf.ts): the cohort with its population model
 * version and the patients left out, each analysed parameter's distribution with a histogram, flagged correlations
 * and outliers, the sizing proposal, device fit coverage with the sizing disagreement flag, the measurements used
 * (definition versions, failures, hand corrections), the comparison with a reference population when given (each
 * compared parameter drawn over the reference), the
 * settings and the code version. The document's dates are the report's, so the same input gives the same bytes.
 */
export async function renderAnalysisReport(input: AnalysisReportInput): Promise<Uint8Array> {
  const outcome = runReportAnalysis(input);
  const { table, analysis: a } = input;
  const title = `Population analysis report: ${a.name || 'Untitled analysis'}`;
  const report = startPdfReport({
    title,
    author: input.generatedBy ?? 'insilico workspace',
    subject: 'Population analysis report',
    date: input.generatedAt,
  });
  const { doc, heading, line } = report;
  const parameterOf = new Map(table.parameters.map((p, j) => [p.key, { ...p, column: j }]));
  const labelOf = (key: string) => {
    const p = parameterOf.get(key);
    return p ? `${p.label} (${p.unit})` : key;
  };
  const idsOf = (rows: readonly number[]) => rows.map((row) => table.patients[row] ?? String(row));
  const analysedIds = (rows: readonly number[]) => rows.map((i) => table.patients[outcome.rows[i]!] ?? String(i));

  report.title(
    title,
    `Generated ${input.generatedAt}${input.generatedBy ? ` by ${input.generatedBy}` : ''}. ` +
      (input.cohort.synthetic
        ? 'Synthetic virtual patients: the figures describe a model population, not clinical evidence.'
        : input.cohort.source === 'imaging'
          ? 'Your own imaging data: de-identified patients whose surfaces were modelled by our staff.'
          : ''),
  );

  heading('Cohort and patients');
  const left = leftOutRows(input);
  line('Cohort', input.cohort.name);
  line('Population model version', input.cohort.modelVersion);
  line('Patients in the cohort', String(table.patients.length));
  line('Patients analysed', String(outcome.rows.length));
  line('Excluded by a user', `${left.excluded.length}: ${patientList(idsOf(left.excluded))}`);
  line(
    'Left out without a value of a parameter in use',
    `${left.withoutValue.length}: ${patientList(idsOf(left.withoutValue))}`,
  );
  line('Analysis revision', `${a.revision}, saved ${a.updatedAt}`);
  if (a.droppedParameters.length > 0) line('Parameters no longer available, left out', a.droppedParameters.join(', '));

  heading('Parameters');
  const settings = a.settings;
  outcome.parameters.forEach((key, j) => {
    const result = outcome.analysis.parameters[j]!;
    const p = parameterOf.get(key);
    if (doc.y > 640) doc.addPage();
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(pdfText(`${labelOf(key)}${groupNote[p?.group ?? 'body'] ?? ''}`));
    doc.font('Helvetica').fontSize(10);
    const s = result.summary;
    doc.text(
      pdfText(
        `n ${s.n}, mean ${number(s.mean)}, SD ${number(s.sd)}, min ${number(s.min)}, Q1 ${number(s.q1)}, ` +
          `median ${number(s.median)}, Q3 ${number(s.q3)}, max ${number(s.max)}`,
      ),
    );
    doc.text(
      pdfText(
        `Percentiles (${result.percentiles.method === 'raw' ? 'from the data' : 'of a fitted normal'}): ` +
          result.percentiles.values.map((v) => `P${v.percentile} ${number(v.value)}`).join(', ') +
          `; Tukey outliers: ${result.outliers.indices.length}` +
          (result.outliers.indices.length ? ` (${patientList(analysedIds(result.outliers.indices))})` : ''),
      ),
    );
    const values = outcome.rows.map((row) => table.values[p?.column ?? -1]?.[row] ?? Number.NaN);
    drawHistogram(doc, histogram(values));
  });

  heading('Correlations and multivariate outliers');
  const pairs = outcome.analysis.flaggedPearson;
  line(
    'Flagged pairs (Pearson)',
    pairs.length === 0
      ? `none with |r| >= ${settings.correlationThreshold} at p < ${settings.alpha}`
      : pairs
          .map(
            (pair) =>
              `${labelOf(outcome.parameters[pair.a]!)} and ${labelOf(outcome.parameters[pair.b]!)}: r ${number(pair.r)}`,
          )
          .join('; '),
  );
  const m = outcome.analysis.mahalanobis;
  line(
    'Mahalanobis outliers',
    m
      ? `${m.indices.length} beyond the chi-square(${m.degreesOfFreedom}) cut-off ${number(m.threshold)} at alpha ` +
          `${m.alpha}${m.indices.length ? `: ${patientList(analysedIds(m.indices))}` : ''}`
      : 'not computed (too few patients for the parameters, or a singular covariance)',
  );

  heading('Sizing');
  const sizing = outcome.analysis.sizing;
  if (settings.sizingParameter === null) doc.text('No sizing proposal was asked for.');
  else {
    line('Sizing parameter', labelOf(settings.sizingParameter));
    if (sizing)
      line(
        'Proposed window',
        `${number(sizing.min)}-${number(sizing.max)} from the P${settings.seedPercentile} value ` +
          `${number(sizing.seedValue)}, covering ${proportion(sizing.coverage)}`,
      );
    const set = outcome.sizeSet;
    if (set)
      line(
        'Size set',
        `${set.windows.length} windows of width ${number(settings.sizeSetWidth)} cover ${proportion(set.coverage)}` +
          `${set.reached ? '' : ' (the target is not reached)'}: ` +
          set.windows.map((w) => `${number(w.min)}-${number(w.max)} (${w.count})`).join(', '),
      );
  }

  heading('Device fit');
  if (outcome.fits.length === 0) doc.text('No device sizes were given.');
  outcome.fits.forEach((fit, k) => {
    doc.font('Helvetica-Bold').text(pdfText(fit.label)).font('Helvetica');
    const sizes = settings.deviceFits[k]?.sizes ?? [];
    if (!fit.coverage) {
      doc.text('This device version has no sizes yet.');
      return;
    }
    fit.coverage.sizes.forEach((size, i) => {
      const ranges = (sizes[i]?.ranges ?? [])
        .map((r) => `${labelOf(r.parameter)} ${number(r.min)}-${number(r.max)}`)
        .join(', ');
      doc.text(pdfText(`${size.name} (${ranges}): ${proportion(size)}`));
    });
    doc.text(pdfText(`Any size: ${proportion(fit.coverage.union)}`));
    const flag = fit.coverage.disagreement;
    if (flag) {
      const methods = flag.parameters.map((j) => labelOf(table.parameters[j]?.key ?? '')).join(', ');
      doc.text(
        pdfText(
          flag.count > 0
            ? `Sizing disagreement: by ${methods} the sizes picked differ for ${proportion(flag)}: ` +
                patientList(analysedIds(flag.rows))
            : `Sizing disagreement: none; by ${methods} the same size is picked for every patient it can size.`,
        ),
      );
    }
    doc.moveDown(0.4);
  });

  heading('Measurements');
  if (input.measurements.length === 0) doc.text('The analysis uses no measurement.');
  for (const mm of input.measurements)
    doc.text(
      pdfText(
        `${mm.name} (${mm.unit}), definition version ${mm.version}, at ${mm.phase}; ordered ${mm.orderedAt}` +
          `${mm.orderedBy ? ` by ${mm.orderedBy}` : ''}; ${mm.corrected} corrected by hand, ${mm.failed} without a value`,
      ),
    );

  heading('Representativeness');
  const r = input.representativeness;
  if (!r) doc.text('No reference population was given for this report.');
  else {
    line(
      'Reference',
      r.referenceKind === 'patients' ? `${r.referencePatients} patients (CSV)` : 'published statistics',
    );
    line('Source', r.source);
    line('Cohort', `${r.cohort.name}, population model ${r.cohort.modelVersion}, ${r.cohort.patients} patients`);
    for (const p of r.parameters) {
      doc.text(
        pdfText(
          `${p.label} (${p.unit}): cohort mean ${number(p.cohort.mean)} SD ${number(p.cohort.sd)}, reference mean ` +
            `${number(p.reference.mean)} SD ${number(p.reference.sd)}; difference ${number(p.standardisedDifference)} ` +
            `reference SD, SD ratio ${number(p.sdRatio)}` +
            (p.ks ? `; KS D ${number(p.ks.statistic)}, p ${number(p.ks.pValue)}` : '') +
            (p.range ? `; reference range covered ${percent(p.range.rangeFraction)}` : ''),
        ),
      );
      const column = input.table.parameters.findIndex((c) => c.key === p.key);
      const cohort = column < 0 ? [] : [...(input.table.values[column] ?? [])].filter(Number.isFinite);
      if (cohort.length > 0)
        drawOverlaidDistributions(doc, cohort, {
          values: p.referenceValues,
          mean: p.reference.mean,
          sd: p.reference.sd,
        });
    }
    if (r.energy)
      line(
        'Energy distance',
        `${number(r.energy.energy)} (reference SDs), permutation p ${number(r.energy.pValue)} ` +
          `(${r.energy.permutations} permutations)`,
      );
    const qq = r.mahalanobis;
    if (qq) {
      line(
        'Mahalanobis',
        `${percent(qq.beyond95)} of the cohort beyond the reference's chi-square 95 % quantile ` +
          '(about 5 % if representative); the QQ plot below lies on the line if it is',
      );
      if (doc.y > 600) doc.addPage();
      drawQqPlot(
        doc,
        qq.expected.map((x, i) => [x, qq.distances[i]!] as const),
        { x: `chi-square(${qq.degreesOfFreedom}) quantile`, y: 'squared Mahalanobis distance of the cohort' },
      );
    }
    if (r.ignoredColumns.length) line('Columns not compared', r.ignoredColumns.join(', '));
  }

  heading('Settings and provenance');
  line('Percentiles', settings.percentiles.join(', '));
  line('Correlation threshold and alpha', `${settings.correlationThreshold}, ${settings.alpha}`);
  line('Density bandwidth', settings.bandwidth);
  line('Target coverage', `${settings.targetCoveragePercent} %`);
  line('Code version', input.codeVersion);
  line('Analysis', a.id);
  return report.finish();
}
