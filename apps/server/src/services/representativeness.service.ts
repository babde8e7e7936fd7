import type { Representativeness, representativenessRequestSchema } from '@insilico/contracts';
import { representativenessLimits } from '@insilico/contracts';
import type { z } from 'zod';
import type { CpuRunner } from '../cpu/pool';
import { representativenessTask, type ReferenceColumn } from '../cpu/representativeness.task';
import { readableAnalysisCohort, type AnalysisCohortDeps } from './analysis-cohort';
import { ServiceError } from './errors';
import { readReferenceCsv, type NamedParameter } from './representativeness-reference';

type ParsedRequest = z.output<typeof representativenessRequestSchema>;

/** The permutation test's seed: fixed, so the same request gives the same p-value. */
const SEED = 20261128;

/**
 * Is the cohort of an analysis representative of a reference population (issue 23)? Checks the reference the
 * caller sends (a de-identified CSV of real patients, or published statistics with their source) and compares
 * the cohort's anatomical parameters with it in the CPU pool. Reading the project is enough (`project.read`): the
 * comparison changes and stores nothing, so the reference never leaves the request (and the workspace's region).
 */
export class RepresentativenessService {
  constructor(
    private readonly deps: AnalysisCohortDeps & {
      cpu: CpuRunner;
    },
  ) {}

  async compare(
    userId: string,
    deviceId: string,
    projectId: string,
    analysisId: string,
    request: ParsedRequest,
  ): Promise<Representativeness> {
    const { row, cohort, table } = await readableAnalysisCohort(this.deps, userId, deviceId, projectId, analysisId);
    // The cohort's own parameters: a virtual cohort's anatomy, or what was measured on an imaging cohort's
    // delivered surfaces (volumes, EDV/ESV/SV/EF), which a reference of real patients may give as well.
    const own = table.parameters;
    const indexOf = (key: string) => own.findIndex((p) => p.key === key);
    const keys = comparedParameters(request, row.analysis.parameters, own, cohort.source);
    const { reference, referencePatients, ignoredColumns, correlation } = referenceColumns(request, keys, own);
    const output = await this.deps.cpu.run(representativenessTask, {
      cohort: keys.map((key) => Float64Array.from(table.values[indexOf(key)]!)),
      reference,
      correlation,
      permutations: request.permutations,
      seed: SEED,
    });
    return {
      analysisId,
      cohort: { id: cohort.id, name: cohort.name, modelVersion: cohort.modelVersion, patients: table.patients.length },
      source: request.source,
      referenceKind: request.reference.kind,
      referencePatients,
      ignoredColumns,
      parameters: keys.map((key, j) => {
        const parameter = own[indexOf(key)]!;
        const column = reference[j]!;
        return {
          key,
          label: parameter.label,
          unit: parameter.unit,
          ...output.parameters[j]!,
          referenceValues: column.kind === 'values' ? [...column.values].filter(Number.isFinite) : null,
        };
      }),
      energy: output.energy,
      mahalanobis: output.mahalanobis,
      createdAt: new Date().toISOString(),
    };
  }
}

/**
 * The compared parameters: those asked for, else the analysis' own ones among the cohort's table (not trial
 * outcomes nor measurements: a reference population has anatomy, not results of this device).
 */
function comparedParameters(
  request: ParsedRequest,
  analysed: readonly string[],
  own: readonly NamedParameter[],
  source: 'virtual' | 'imaging',
): string[] {
  const ownKeys = new Set(own.map((p) => p.key));
  const asked = request.parameters ?? analysed.filter((key) => ownKeys.has(key));
  const unknown = asked.filter((key) => !ownKeys.has(key));
  const what = source === 'imaging' ? 'parameters measured on the delivered surfaces' : 'anatomical parameters';
  if (unknown.length > 0)
    throw new ServiceError(
      422,
      'unknown_parameter',
      `Only the cohort’s ${what} can be compared with a reference; not: ${unknown.join(', ')}.`,
    );
  if (asked.length === 0)
    throw new ServiceError(422, 'no_parameters', `The analysis has none of the cohort’s ${what} to compare.`);
  return [...new Set(asked)];
}

/** The reference per compared parameter, checked: every compared parameter needs enough reference data. */
function referenceColumns(
  request: ParsedRequest,
  keys: readonly string[],
  own: readonly NamedParameter[],
): {
  reference: ReferenceColumn[];
  referencePatients: number | null;
  ignoredColumns: string[];
  correlation: number[] | null;
} {
  const label = (key: string) => own.find((p) => p.key === key)?.label ?? key;
  if (request.reference.kind === 'patients') {
    const table = readReferenceCsv(request.reference.csv, own);
    const missing = keys.filter((key) => !table.columns.has(key));
    if (missing.length > 0)
      throw new ServiceError(
        422,
        'reference_lacks_parameter',
        `The reference file has no column for ${missing.map(label).join(', ')}. Add it or leave the parameter out.`,
      );
    const reference = keys.map((key) => ({ kind: 'values' as const, values: table.columns.get(key)! }));
    reference.forEach((column, j) => {
      const n = column.values.filter(Number.isFinite).length;
      if (n < representativenessLimits.minReferencePatients)
        throw new ServiceError(
          422,
          'reference_too_small',
          `The reference has ${n} value${n === 1 ? '' : 's'} of ${label(keys[j]!)}; at least ${representativenessLimits.minReferencePatients} are needed.`,
        );
    });
    return { reference, referencePatients: table.patients, ignoredColumns: table.ignoredColumns, correlation: null };
  }
  const given = new Map(request.reference.parameters.map((p) => [p.key, p]));
  const missing = keys.filter((key) => !given.has(key));
  if (missing.length > 0)
    throw new ServiceError(
      422,
      'reference_lacks_parameter',
      `The reference statistics do not give ${missing.map(label).join(', ')}. Add them or leave the parameter out.`,
    );
  const p = keys.length;
  const correlation = Array.from({ length: p * p }, (_, k): number => (k % (p + 1) === 0 ? 1 : 0));
  for (const { a, b, r } of request.reference.correlations) {
    const i = keys.indexOf(a);
    const j = keys.indexOf(b);
    if (i < 0 || j < 0 || i === j) continue;
    correlation[i * p + j] = r;
    correlation[j * p + i] = r;
  }
  const reference: ReferenceColumn[] = keys.map((key) => {
    const s = given.get(key)!;
    return {
      kind: 'summary',
      mean: s.mean,
      sd: s.sd,
      n: s.n,
      percentiles: [...s.percentiles].sort((x, y) => x.p - y.p),
    };
  });
  return { reference, referencePatients: null, ignoredColumns: [], correlation };
}
