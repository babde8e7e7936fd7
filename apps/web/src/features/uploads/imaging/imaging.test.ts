// @vitest-environment node
// The worker's code: no DOM, as in a Web Worker (and Node's Blob, which zip.js's BlobWriter needs).
import { BlobReader, BlobWriter, Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter } from '@zip.js/zip.js';
import { auditDeidentified, bytesSource, findElement, readDicom } from '@insilico/dicom';
import { hostileCt, latin1, part10, type PatientSpec } from '@insilico/dicom/testing';
import { describe, expect, it } from 'vitest';
import { serveDeidentification, type WorkerLike } from './deidentifyPool';
import { MANIFEST_NAME, deidentifyToZip, type DeidentificationManifest } from './deidentifyZip';
import { InputError, folderInput, zipInput } from './inputs';
import { MAX_ZIP_BYTES, NOT_A_ZIP_MESSAGE } from './limits';
import { createImagingHandler } from './imagingHandler';
import type { ImagingReply } from './imagingProtocol';
import { scanDataset, scanResult } from './scan';

const patient = (n: number, series = 1, instance = 1): PatientSpec => ({
  name: `PATIENT${n}^GIVEN${n}`,
  id: `MRN-${n}00${n}`,
  birthDate: `19${50 + n}0101`,
  studyUid: `1.2.826.0.1.3680043.10.${n}`,
  studyDate: '20230412',
  seriesUid: `1.2.826.0.1.3680043.10.${n}.${series}`,
  sopUid: `1.2.826.0.1.3680043.10.${n}.${series}.${instance}`,
  seriesDescription: series === 2 ? 'Dose Report' : 'Arterial phase',
  instanceNumber: instance,
});

async function zipOf(entries: [string, Uint8Array][]): Promise<Blob> {
  const writer = new ZipWriter(new BlobWriter('application/zip'));
  for (const [name, bytes] of entries) await writer.add(name, new Uint8ArrayReader(bytes));
  return writer.close();
}

async function datasetZip(): Promise<Blob> {
  const truncated = part10(hostileCt(patient(9)));
  return zipOf([
    ['DOE_JOHN/ct/IM0001', part10(hostileCt(patient(1, 1, 1)))],
    ['DOE_JOHN/ct/IM0002', part10(hostileCt(patient(1, 1, 2)))],
    ['DOE_JOHN/dose/IM0001', part10(hostileCt(patient(1, 2, 1)))],
    ['SMITH_ANN/IM0001.dcm', part10(hostileCt(patient(2)))],
    ['ROE_RICHARD/IM0001.dcm', part10(hostileCt(patient(3)))],
    ['README.txt', new TextEncoder().encode('Exported for Dr. House by PATIENT1')],
    ['../escape.dcm', part10(hostileCt(patient(4)))],
    ['broken.dcm', truncated.subarray(0, truncated.length - 10)],
    ['zeros.bin', new Uint8Array(4 * 1024 * 1024)], // 4 MB of zeros packs into a few KB: a zip bomb's ratio
  ]);
}

describe('imaging dataset input and scan (in the worker)', () => {
  it('reads a zip entry by entry into the patient → study → series tree, lists other files, refuses with reasons', async () => {
    const input = await zipInput(await datasetZip());
    const scanned = await scanDataset(input);
    const result = scanResult(scanned, false);
    expect(result.patients.map((p) => p.id)).toEqual(['MRN-1001', 'MRN-2002', 'MRN-3003']);
    expect(result.patients[0]?.studies[0]?.series.map((s) => [s.description, s.images, s.burnedIn.length > 0])).toEqual(
      [
        ['Arterial phase', 2, false],
        ['Dose Report', 1, true],
      ],
    );
    expect(result.dicomFiles).toBe(5);
    expect(scanned.summaries.size).toBe(5);
    const dates = (modified: boolean) =>
      scanResult(scanned, modified).patients[0]?.studies[0]?.series[0]?.tagsToAnonymize.find(
        (t) => t.tag === '(0008,0020)',
      )?.action;
    expect([dates(false), dates(true)]).toEqual(['Z', 'C']); // the option switched without reading the files again
    expect(result.additionalFiles.map((f) => f.path)).toEqual(['README.txt']);
    const reasons = new Map(result.refused.map((r) => [r.path, r.reason]));
    expect(reasons.get('../escape.dcm')).toBe('Unsafe path (it points outside the dataset)');
    expect(reasons.get('broken.dcm')).toMatch(/^The file ends inside/);
    expect(reasons.get('zeros.bin')).toMatch(/like a zip bomb/);
    await input.close();
  });

  it('refuses a zip over 1 GB before reading it, and a file that is no zip', async () => {
    await expect(zipInput({ size: MAX_ZIP_BYTES + 1 } as Blob)).rejects.toThrow(/at most 1 GB/);
    await expect(zipInput(new Blob([new TextEncoder().encode('not a zip at all')]))).rejects.toThrow(
      new InputError(NOT_A_ZIP_MESSAGE),
    );
  });

  it('reads a folder file by file', async () => {
    const input = folderInput([
      { path: 'study/a.dcm', file: new Blob([part10(hostileCt(patient(1)))]) },
      { path: 'study/notes.txt', file: new Blob(['hello']) },
    ]);
    const result = scanResult(await scanDataset(input), false);
    expect(result.patients).toHaveLength(1);
    expect(result.additionalFiles).toEqual([{ path: 'study/notes.txt', size: 5 }]);
  });

  it('de-identifies into a new zip: chosen series only, names from new identifiers, every file passes the audit', async () => {
    const input = await zipInput(await datasetZip());
    const { summaries } = await scanDataset(input);
    const progress: number[] = [];
    const { zip, manifest } = await deidentifyToZip(
      input,
      summaries,
      { excludedSeries: [patient(1, 2).seriesUid], keptAdditionalFiles: ['README.txt'], modifiedDates: true },
      (p) => progress.push(p.done),
    );
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    const reader = new ZipReader(new BlobReader(zip));
    const entries = (await reader.getEntries()).filter((e) => !e.directory);
    const names = entries.map((e) => e.filename);
    expect(names.filter((n) => n.endsWith('.dcm'))).toHaveLength(4);
    expect(names).toContain(MANIFEST_NAME);
    expect(names).toContain('additional-files/1-README.txt');
    for (const name of names) expect(name).not.toMatch(/DOE|SMITH|ROE|IM000|1\.2\.826/);
    for (const entry of entries) {
      if (!entry.filename.endsWith('.dcm') || entry.directory) continue;
      const bytes = await entry.getData(new Uint8ArrayWriter());
      const file = await readDicom(bytesSource(bytes));
      expect(auditDeidentified(file), entry.filename).toEqual([]);
      const text = latin1(bytes);
      for (const n of [1, 2, 3]) {
        const p = patient(n);
        for (const value of [p.name, p.id, p.studyUid, p.birthDate, 'St Elsewhere Hospital'])
          expect(text).not.toContain(value);
      }
    }
    const manifestEntry = entries.find((e) => e.filename === MANIFEST_NAME);
    const parsed = JSON.parse(
      latin1((await manifestEntry?.getData?.(new Uint8ArrayWriter())) ?? new Uint8Array()),
    ) as DeidentificationManifest;
    expect(parsed).toEqual(manifest);
    expect(manifest.series.map((s) => [s.modality, s.files, s.images])).toEqual([
      ['CT', 2, 2],
      ['CT', 1, 1],
      ['CT', 1, 1],
    ]);
    expect(manifest.excludedSeries).toBe(1);
    expect(manifest.options).toEqual(['Retain Longitudinal Temporal Information with Modified Dates']);
    expect(manifest.series[0]?.actions.find((a) => a.tag === '(0010,0010)')?.count).toBe(2);
    expect(JSON.stringify(manifest)).not.toMatch(/PATIENT|MRN|1\.2\.826/);
    await reader.close();
    await input.close();
  });

  it('in parallel workers: the same zip as one thread would make, files in order, UIDs consistent across workers', async () => {
    const input = await zipInput(await datasetZip());
    const { summaries } = await scanDataset(input);
    const started: WorkerLike[] = [];
    // A worker's stand-in: the worker's code on this thread, messages structured-cloned with their transfers.
    const start = (): WorkerLike => {
      const inside = {
        onmessage: null as ((event: MessageEvent) => void) | null,
        postMessage: (message: unknown, transfer: Transferable[] = []) =>
          queueMicrotask(() => outside.onmessage?.({ data: structuredClone(message, { transfer }) } as MessageEvent)),
      };
      const outside: WorkerLike = {
        onmessage: null,
        onerror: null,
        postMessage: (message, transfer = []) =>
          queueMicrotask(() => inside.onmessage?.({ data: structuredClone(message, { transfer }) } as MessageEvent)),
        terminate: () => undefined,
      };
      serveDeidentification(inside);
      started.push(outside);
      return outside;
    };
    const selection = { excludedSeries: [], keptAdditionalFiles: ['README.txt'], modifiedDates: false };
    const progress: number[] = [];
    const { zip, manifest } = await deidentifyToZip(input, summaries, selection, (p) => progress.push(p.done), {
      start,
      count: 3,
    });
    expect(started).toHaveLength(3);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    const reader = new ZipReader(new BlobReader(zip));
    const entries = (await reader.getEntries()).filter((e) => !e.directory);
    const single = await deidentifyToZip(input, summaries, selection);
    const singleEntries = await new ZipReader(new BlobReader(single.zip)).getEntries();
    // Other secrets give other names; the shape is the same, entry for entry, in the input's order.
    const shape = (name: string) => name.replace(/P[0-9A-F]{12}/g, 'P').replace(/2\.25\.\d+/g, 'U');
    expect(entries.map((e) => shape(e.filename))).toEqual(singleEntries.map((e) => shape(e.filename)));
    expect(manifest.series.map((s) => [s.files, s.actions.length])).toEqual(
      single.manifest.series.map((s) => [s.files, s.actions.length]),
    );
    // Patient 1's two CT files went to different workers and still share their patient, study and series.
    const first = manifest.series[0]!;
    expect(first.files).toBe(2);
    expect(entries.filter((e) => e.filename.startsWith(`${first.patient}/${first.studyInstanceUid}/`))).toHaveLength(3);
    for (const entry of entries) {
      if (!entry.filename.endsWith('.dcm')) continue;
      const bytes = await entry.getData(new Uint8ArrayWriter(), { checkSignature: true });
      expect(auditDeidentified(await readDicom(bytesSource(bytes))), entry.filename).toEqual([]);
    }
    await reader.close();
    await input.close();
  });

  it('blanks the regions the user drew in a kept burned-in series, and leaves every other pixel byte as it was', async () => {
    const input = await zipInput(await datasetZip());
    const { summaries } = await scanDataset(input);
    const dose = patient(1, 2).seriesUid;
    const { zip, manifest } = await deidentifyToZip(input, summaries, {
      excludedSeries: [],
      keptAdditionalFiles: [],
      modifiedDates: false,
      maskedRegions: { [dose]: [{ x: 1, y: 0, width: 2, height: 1 }] },
    });
    const reader = new ZipReader(new BlobReader(zip));
    const pixelData = (bytes: Uint8Array) =>
      readDicom(bytesSource(bytes)).then((f) => findElement(f.dataset, 0x7fe00010)?.value);
    const original = (await pixelData(part10(hostileCt(patient(1, 2)))))!;
    let masked = 0;
    for (const entry of await reader.getEntries()) {
      if (!entry.filename.endsWith('.dcm') || entry.directory) continue;
      const pixels = (await pixelData(await entry.getData(new Uint8ArrayWriter())))!;
      const series = manifest.series.find((s) => entry.filename.includes(s.seriesInstanceUid))!;
      if (series.maskedRegions.length === 0) {
        expect(pixels).toEqual(original); // every patient's image has the same synthetic pixels
        continue;
      }
      masked += 1;
      // 16-bit pixels, 4 columns: row 0, columns 1–2 are bytes 2–5.
      const expected = original.slice();
      expected.fill(0, 2, 6);
      expect(pixels).toEqual(expected);
    }
    expect(masked).toBe(1);
    expect(manifest.series.map((s) => s.maskedRegions)).toEqual([[], [{ x: 1, y: 0, width: 2, height: 1 }], [], []]);
    expect(manifest.options).toEqual(['Clean Pixel Data (regions chosen by the user, listed per series)']);
    await reader.close();
    await input.close();
  });

  it('worker protocol: scan with progress, the tree for either dates option, de-identify; failures answered with their message', async () => {
    const replies: ImagingReply[] = [];
    const handle = createImagingHandler((reply) => replies.push(reply));
    await handle({
      type: 'deidentify',
      id: 1,
      selection: { excludedSeries: [], keptAdditionalFiles: [], modifiedDates: false },
    });
    expect(replies.pop()).toEqual({ type: 'error', id: 1, message: 'No dataset has been read yet.' });
    await handle({ type: 'scan', id: 2, source: { kind: 'zip', file: new Blob(['no zip']) } });
    expect(replies.pop()).toEqual({ type: 'error', id: 2, message: NOT_A_ZIP_MESSAGE });
    await handle({ type: 'scan', id: 3, source: { kind: 'zip', file: await datasetZip() } });
    const scanned = replies.pop();
    expect(scanned?.type === 'scanned' && scanned.result.patients).toHaveLength(3);
    expect(replies.filter((r) => r.type === 'progress').at(-1)).toEqual({
      type: 'progress',
      id: 3,
      phase: 'scan',
      done: 7,
      total: 7,
    });
    await handle({
      type: 'deidentify',
      id: 4,
      selection: { excludedSeries: [], keptAdditionalFiles: [], modifiedDates: false },
    });
    const done = replies.pop();
    expect(done?.type).toBe('deidentified');
    expect(done?.type === 'deidentified' && done.manifest.series.length).toBe(4);
  });
});
