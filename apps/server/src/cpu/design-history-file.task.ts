import { designHistoryParts, type DesignHistoryFileInput } from '../services/design-history-bundle';
import { cpuTask, wholeBuffer } from './task';

/**
 * The design history file's PDF and the evidence ZIP's own files in a CPU-pool thread: laying out hundreds of items,
 * the trace matrix and the audit excerpt, and serialising them must not hold the event loop. The ZIP itself is
 * written as it is stored, with the attached files streamed from storage (design-history-bundle.ts).
 */
export function designHistoryPartsInThread(
  input: DesignHistoryFileInput,
  context: { transfer(...b: ArrayBuffer[]): void },
) {
  return designHistoryParts(input).then((parts) => {
    const bytes = parts.bundle ? parts.bundle.contents.map(([, content]) => content) : [parts.pdf];
    // The PDF is also the ZIP's first file: one buffer, transferred once.
    context.transfer(...new Set(bytes.flatMap((content) => wholeBuffer(content))));
    return parts;
  });
}

export const designHistoryFileTask = cpuTask(import.meta.url, 'designHistoryPartsInThread', designHistoryPartsInThread);
