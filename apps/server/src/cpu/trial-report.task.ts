import { renderTrialReport, type TrialReportInput } from '../services/trial-report';
import { cpuTask } from './task';

/**
 * A trial report's PDF in a CPU-pool thread: laying out a hundred patients' tables and histograms takes hundreds of
 * ms, which must not hold the event loop.
 */
export function renderTrialReportInThread(input: TrialReportInput, context: { transfer(...b: ArrayBuffer[]): void }) {
  return renderTrialReport(input).then((bytes) => {
    context.transfer(bytes.buffer as ArrayBuffer);
    return bytes;
  });
}

export const trialReportTask = cpuTask(import.meta.url, 'renderTrialReportInThread', renderTrialReportInThread);
