/**
 * The three measurement pages share their state through the address (a reload or a shared link keeps it):
 * `device`, what is measured — a `cohort`, or a shape model (`ssm` of `project`: its mean and named instances) —,
 * the chosen definitions as repeated `m`, and once ordered `order`.
 */
export interface MeasurementFlow {
  deviceId: string | null;
  cohortId: string | null;
  /** A shape model measured instead of a cohort, and its project. */
  ssmId: string | null;
  projectId: string | null;
  definitionIds: string[];
  orderId: string | null;
}

/** Reads the flow from the address's query. */
export function readFlow(params: URLSearchParams): MeasurementFlow {
  return {
    deviceId: params.get('device'),
    cohortId: params.get('cohort'),
    ssmId: params.get('ssm'),
    projectId: params.get('project'),
    definitionIds: params.getAll('m'),
    orderId: params.get('order'),
  };
}

/** The path of a step with the flow in its query (empty parts left out). */
export function flowPath(step: 'select-patient-cohort' | 'define' | 'order', flow: Partial<MeasurementFlow>): string {
  const q = new URLSearchParams();
  if (flow.deviceId) q.set('device', flow.deviceId);
  if (flow.cohortId) q.set('cohort', flow.cohortId);
  if (flow.ssmId && flow.projectId) {
    q.set('ssm', flow.ssmId);
    q.set('project', flow.projectId);
  }
  for (const id of flow.definitionIds ?? []) q.append('m', id);
  if (flow.orderId) q.set('order', flow.orderId);
  const query = q.toString();
  return `/measurement/${step}${query ? `?${query}` : ''}`;
}

/** Where measuring a shape model's shapes starts: the definitions to choose, the model chosen already. */
export function measureShapesPath(deviceId: string, projectId: string, ssmId: string): string {
  return flowPath('define', { deviceId, projectId, ssmId });
}

/** What a flow measures: a cohort, a project's shape model, or nothing chosen yet. */
export type MeasuredSubject =
  { kind: 'cohort'; cohortId: string } | { kind: 'ssm'; projectId: string; ssmId: string } | null;

export function subjectOf(flow: MeasurementFlow): MeasuredSubject {
  if (flow.cohortId) return { kind: 'cohort', cohortId: flow.cohortId };
  if (flow.ssmId && flow.projectId) return { kind: 'ssm', projectId: flow.projectId, ssmId: flow.ssmId };
  return null;
}

/** Bins of a histogram: lower edge, upper edge, count. */
export interface Bin {
  from: number;
  to: number;
  count: number;
}

/**
 * Equal-width bins over the finite values (Sturges' count, at least 1, at most 30); the last bin is closed. A
 * single distinct value gives one bin of width 0. Empty for no finite value.
 */
export function histogram(values: readonly (number | null)[]): Bin[] {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (xs.length === 0) return [];
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  if (max === min) return [{ from: min, to: max, count: xs.length }];
  const n = Math.min(30, Math.max(1, Math.ceil(Math.log2(xs.length) + 1)));
  const width = (max - min) / n;
  const bins = Array.from({ length: n }, (_, i) => ({ from: min + i * width, to: min + (i + 1) * width, count: 0 }));
  for (const x of xs) {
    const bin = bins[Math.min(n - 1, Math.floor((x - min) / width))];
    if (bin) bin.count += 1;
  }
  return bins;
}

/** Mean, SD (sample) and count of the finite values; null without any. */
export function summary(values: readonly (number | null)[]): { mean: number; sd: number; n: number } | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (xs.length === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, sd, n: xs.length };
}
