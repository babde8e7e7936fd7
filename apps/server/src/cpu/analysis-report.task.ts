import { renderAnalysisReport, type AnalysisReportInput } from '../reports/analysis-report';
import { cpuTask } from './task';

/**
 * The population analysis report in a CPU-pool thread: the analysis of the whole cohort (KDEs, correlation
 * matrices, Mahalanobis distances) and the PDF's layout take from tens of ms to seconds on large cohorts, which
 * must not hold the event loop.
 */
export function renderAnalysisReportInThread(
  input: AnalysisReportInput,
  context: { transfer(...b: ArrayBuffer[]): void },
) {
  return renderAnalysisReport(input).then((bytes) => {
    context.transfer(bytes.buffer as ArrayBuffer);
    return bytes;
  });
}

export const analysisReportTask = cpuTask(
  import.meta.url,
  'renderAnalysisReportInThread',
  renderAnalysisReportInThread,
);
