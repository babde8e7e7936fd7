import { renderDesignHistoryFile, type DesignHistoryFileInput } from '../services/design-history-bundle';
import { cpuTask, wholeBuffer } from './task';

/**
 * The design history file (PDF, or the evidence ZIP around it) in a CPU-pool thread: laying out hundreds of items,
 * the trace matrix and the audit excerpt, zipping and hashing must not hold the event loop.
 */
export function renderDesignHistoryFileInThread(
  input: DesignHistoryFileInput,
  context: { transfer(...b: ArrayBuffer[]): void },
) {
  return renderDesignHistoryFile(input).then((file) => {
    context.transfer(...wholeBuffer(file.bytes));
    return file;
  });
}

export const designHistoryFileTask = cpuTask(
  import.meta.url,
  'renderDesignHistoryFileInThread',
  renderDesignHistoryFileInThread,
);
