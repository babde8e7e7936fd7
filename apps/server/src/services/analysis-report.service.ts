import {
  analysisSettingsSchema,
  normalizeAnalysisSettings,
  withMeasurements,
  withTrialOutcomes,
  type analysisReportRequestSchema,
  type CohortParameterTable,
  type MeasurementOrder,
  type TrialOutcomeColumns,
} from '@insilico/contracts';
import { MIN_PATIENTS, InsufficientPatientsError } from '@insilico/stats';
import type { z } from 'zod';
import { analysisReportTask } from '../cpu/analysis-report.task';
import type { CpuRunner } from '../cpu/pool';
import { leftOutRows, measurementsUsed, type AnalysisReportInput } from '../reports/analysis-report';
import { readableAnalysisCohort, type AnalysisCohortDeps } from './analysis-cohort';
import { ServiceError } from './errors';
import type { RepresentativenessService } from './representativeness.service';

type ParsedRequest = z.output<typeof analysisReportRequestSchema>;

/** A saved analysis (or one about to be saved) as the server runs it. */
export interface SavedAnalysis {
  id: string;
  name: string;
  revision: number;
  updatedAt: string;
  parameters: readonly string[];
  settings: unknown;
  excluded: string[];
}

/**
 * The population analysis report (issue 23): the saved analysis run on the server on the cohort's patients, with
 * the trial outcomes and measurements the page shows, and the comparison with a reference population when the
 * caller gives one, laid out as a PDF in the CPU pool. Reading the project is enough (`project.read`, as for the
 * analysis itself); the report is answered, not stored.
 */
export class AnalysisReportService {
  constructor(
    private readonly deps: AnalysisCohortDeps & {
      cpu: CpuRunner;
      representativeness: RepresentativenessService;
      /** The outcome columns of the project's trials on the cohort the user may read. */
      trialColumns: (
        userId: string,
        deviceId: string,
        projectId: string,
        cohortId: string,
      ) => Promise<TrialOutcomeColumns[]>;
      /** The workspace's ready measurement orders on the cohort with their results (none without the plan). */
      measurementOrders: (userId: string, deviceId: string, cohortId: string) => Promise<MeasurementOrder[]>;
      userName: (userId: string) => Promise<string | null>;
      codeVersion: string;
    },
  ) {}

  async report(
    userId: string,
    deviceId: string,
    projectId: string,
    analysisId: string,
    request: ParsedRequest,
  ): Promise<{ bytes: Uint8Array; fileName: string }> {
    const {
      row,
      cohort,
      table: own,
    } = await readableAnalysisCohort(this.deps, userId, deviceId, projectId, analysisId);
    const { analysis, table, measurements } = await this.prepare(userId, deviceId, projectId, cohort.id, own, {
      ...row.analysis,
      updatedAt: row.analysis.updatedAt.toISOString(),
    });
    const representativeness = request.representativeness
      ? await this.deps.representativeness.compare(userId, deviceId, projectId, analysisId, request.representativeness)
      : null;
    const input: AnalysisReportInput = {
      generatedAt: new Date().toISOString(),
      generatedBy: await this.deps.userName(userId),
      codeVersion: this.deps.codeVersion,
      analysis,
      cohort: {
        name: cohort.name,
        modelVersion: cohort.modelVersion,
        synthetic: table.synthetic,
        source: cohort.source,
      },
      table,
      measurements,
      representativeness,
    };
    const bytes = await this.deps.cpu.run(analysisReportTask, input);
    const stamp = input.generatedAt.slice(0, 10);
    const safe = `${cohort.name}-${analysis.name || 'analysis'}`.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 100);
    return { bytes, fileName: `${safe}-report-${stamp}.pdf` };
  }

  /**
   * The analysis as it runs on the server: the cohort's table with the trial outcomes and measurements the page
   * shows (added to the cohort's own table `own`), and the saved analysis without the parameters that are gone. Refuses (ServiceError) what cannot be
   * analysed: a device fit on a gone parameter, no parameter left, fewer than 20 patients.
   */
  async prepare(
    userId: string,
    deviceId: string,
    projectId: string,
    cohortId: string,
    own: CohortParameterTable,
    saved: SavedAnalysis,
  ): Promise<Pick<AnalysisReportInput, 'analysis' | 'table' | 'measurements'>> {
    const orders = await this.deps.measurementOrders(userId, deviceId, cohortId);
    const table = withMeasurements(
      withTrialOutcomes(own, await this.deps.trialColumns(userId, deviceId, projectId, cohortId)),
      orders,
    );
    const settings = normalizeAnalysisSettings(analysisSettingsSchema.parse(saved.settings));
    // A parameter of a trial deleted since the analysis was saved is no longer there: the report leaves it out and
    // says so; a device fit that needs it cannot be judged.
    const known = new Set(table.parameters.map((p) => p.key));
    const dropped = saved.parameters.filter((key) => !known.has(key));
    const fitKeys = settings.deviceFits.flatMap((fit) => fit.sizes.flatMap((s) => s.ranges.map((r) => r.parameter)));
    const lostFitKeys = [...new Set(fitKeys.filter((key) => !known.has(key)))];
    if (lostFitKeys.length > 0)
      throw new ServiceError(
        409,
        'parameter_gone',
        `The device fit uses parameters that are no longer available (a deleted trial or measurement): ${lostFitKeys.join(', ')}. Change the sizes first.`,
      );
    const parameters = saved.parameters.filter((key) => known.has(key));
    if (parameters.length === 0)
      throw new ServiceError(422, 'no_parameters', 'None of the analysis’ parameters is available any more.');
    const analysis: AnalysisReportInput['analysis'] = {
      id: saved.id,
      name: saved.name,
      revision: saved.revision,
      updatedAt: saved.updatedAt,
      parameters,
      droppedParameters: dropped,
      settings: {
        ...settings,
        sizingParameter:
          settings.sizingParameter !== null && known.has(settings.sizingParameter) ? settings.sizingParameter : null,
      },
      excluded: saved.excluded,
    };
    const left = leftOutRows({ analysis, table });
    const analysed = table.patients.length - left.excluded.length - left.withoutValue.length;
    if (analysed < MIN_PATIENTS)
      throw new ServiceError(422, 'insufficient_patients', new InsufficientPatientsError(analysed).message);
    return { analysis, table, measurements: measurementsUsed(orders, analysis) };
  }
}
