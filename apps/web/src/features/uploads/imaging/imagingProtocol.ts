import type { DeidentificationManifest, DeidentifySelection } from './deidentifyZip';
import type { ScanResult, SeriesPreview } from './scan';

/** What the page asks the imaging worker (one dataset at a time; a new scan replaces the last). */
export type ImagingRequest =
  | {
      type: 'scan';
      id: number;
      source: { kind: 'zip'; file: Blob } | { kind: 'folder'; files: { path: string; file: Blob }[] };
    }
  | { type: 'result'; id: number; modifiedDates: boolean }
  | { type: 'deidentify'; id: number; selection: DeidentifySelection }
  | { type: 'preview'; id: number; seriesId: string };

export type ImagingReply =
  | { type: 'progress'; id: number; phase: 'scan' | 'deidentify'; done: number; total: number; bytes?: number }
  | { type: 'scanned'; id: number; result: ScanResult }
  | { type: 'deidentified'; id: number; zip: Blob; manifest: DeidentificationManifest }
  | { type: 'preview'; id: number; preview: SeriesPreview | null }
  | { type: 'error'; id: number; message: string };

/** The part of a Worker (or of the worker's own scope) the protocol uses. */
export interface ImagingPort {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  terminate?(): void;
}
