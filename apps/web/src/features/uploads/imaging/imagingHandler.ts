import { deidentifyToZip, type DeidentifyWorkers } from './deidentifyZip';
import { folderInput, zipInput, type DatasetInput } from './inputs';
import type { ImagingReply, ImagingRequest } from './imagingProtocol';
import { scanDataset, scanResult, seriesPreview, type ScannedDataset } from './scan';

/**
 * The imaging worker's state and answers, apart from the worker's global scope so that tests drive it directly:
 * the dataset opened last and what its scan found; `deidentifyWorkers` (absent in tests: one thread) de-identify in
 * parallel. Every failure is answered with its message, never thrown.
 */
export function createImagingHandler(
  reply: (message: ImagingReply) => void,
  deidentifyWorkers?: DeidentifyWorkers,
): (request: ImagingRequest) => Promise<void> {
  let input: DatasetInput | undefined;
  let scanned: ScannedDataset | undefined;
  return async (request) => {
    try {
      switch (request.type) {
        case 'scan': {
          await input?.close();
          input = undefined;
          scanned = undefined;
          const opened =
            request.source.kind === 'zip' ? await zipInput(request.source.file) : folderInput(request.source.files);
          input = opened;
          scanned = await scanDataset(opened, ({ done, total }) =>
            reply({ type: 'progress', id: request.id, phase: 'scan', done, total }),
          );
          reply({ type: 'scanned', id: request.id, result: scanResult(scanned, false) });
          return;
        }
        case 'result':
          if (!scanned) throw new Error('No dataset has been read yet.');
          reply({ type: 'scanned', id: request.id, result: scanResult(scanned, request.modifiedDates) });
          return;
        case 'deidentify': {
          if (!input || !scanned) throw new Error('No dataset has been read yet.');
          const { zip, manifest } = await deidentifyToZip(
            input,
            scanned.summaries,
            request.selection,
            ({ done, total, bytes }) =>
              reply({ type: 'progress', id: request.id, phase: 'deidentify', done, total, bytes }),
            deidentifyWorkers,
          );
          reply({ type: 'deidentified', id: request.id, zip, manifest });
          return;
        }
        case 'preview':
          if (!input || !scanned) throw new Error('No dataset has been read yet.');
          reply({ type: 'preview', id: request.id, preview: await seriesPreview(input, scanned, request.seriesId) });
          return;
      }
    } catch (error) {
      reply({
        type: 'error',
        id: request.id,
        message: error instanceof Error ? error.message : 'The dataset could not be read.',
      });
    }
  };
}
