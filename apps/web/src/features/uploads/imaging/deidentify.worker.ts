import { serveDeidentification } from './deidentifyPool';

/** A de-identification worker: files in, compressed de-identified entries out (deidentifyPool.ts). */
serveDeidentification(self as unknown as Parameters<typeof serveDeidentification>[0]);
