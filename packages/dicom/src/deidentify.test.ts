import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXPLICIT,
  IMPLICIT,
  JPEG_BASELINE,
  hostileCt,
  latin1,
  part10,
  pixels,
  type PatientSpec,
} from '../test/syntheticDicom';
import { auditDeidentified } from './audit';
import { bytesSource } from './byteSource';
import { deidentify, IMPLEMENTATION_CLASS_UID, planDeidentification } from './deidentify';
import { GENERATED_UID_PATTERN, PSEUDONYM_PATTERN, Pseudonymiser } from './pseudonyms';
import { readDicom } from './reader';
import { Tag } from './tags';
import type { DicomFile } from './types';
import { findElement, stringOf } from './values';
import { writeDicomBytes } from './writer';

const alice: PatientSpec = {
  name: 'SMITH^ALICE',
  id: 'MRN-1001',
  birthDate: '19580101',
  studyUid: '1.2.826.0.1.3680043.9.1001.1',
  studyDate: '20230412',
  seriesUid: '1.2.826.0.1.3680043.9.1001.1.1',
  sopUid: '1.2.826.0.1.3680043.9.1001.1.1.1',
};
const aliceSecond: PatientSpec = {
  ...alice,
  sopUid: '1.2.826.0.1.3680043.9.1001.1.1.2',
  referencedSopUid: alice.sopUid,
  instanceNumber: 2,
};
const aliceLater: PatientSpec = {
  ...alice,
  studyUid: '1.2.826.0.1.3680043.9.1001.2',
  studyDate: '20240101',
  seriesUid: '1.2.826.0.1.3680043.9.1001.2.1',
  sopUid: '1.2.826.0.1.3680043.9.1001.2.1.1',
};
const bob: PatientSpec = {
  name: 'JONES^ROBERT',
  id: 'MRN-2002',
  birthDate: '19700707',
  studyUid: '1.2.826.0.1.3680043.9.2002.1',
  studyDate: '20220202',
  seriesUid: '1.2.826.0.1.3680043.9.2002.1.1',
  sopUid: '1.2.826.0.1.3680043.9.2002.1.1.1',
};

/** Every value of the synthetic files that identifies someone or something, and must not appear in any output byte. */
function identifyingValues(p: PatientSpec): string[] {
  return [
    p.name,
    p.name.split('^')[0] ?? '',
    p.id,
    `ACC-${p.id}`,
    `STUDY-${p.id}`,
    `OTHER-${p.id}`,
    `NESTED-OTHER-${p.id}`,
    p.birthDate,
    p.studyDate,
    p.studyUid,
    p.seriesUid,
    p.sopUid,
    `${p.studyUid}.77`,
    ...(p.referencedSopUid ? [p.referencedSopUid] : []),
    'St Elsewhere Hospital',
    'Hospital Road',
    'HOUSE^GREGORY',
    'OPERATOR^OLIVIA',
    'SN-4455667',
    '742 Evergreen Terrace',
    'Springfield',
    'ACME 1.0',
    'PRIVATE-COPY-OF',
    'ACME NESTED PRIVATE',
    'HOSPITAL_PACS',
    '1.2.3.4.99',
    'OVERLAY',
    'Image of',
    'PREAMBLE-SECRET',
  ];
}

async function run(
  spec: PatientSpec,
  options: { transferSyntax?: string; modifiedDates?: boolean; pseudonymiser: Pseudonymiser },
) {
  const input = part10(hostileCt(spec), {
    transferSyntax: options.transferSyntax ?? EXPLICIT,
    preamble: 'PREAMBLE-SECRET',
  });
  const source = bytesSource(input);
  const { file, actions } = await deidentify(await readDicom(source), {
    pseudonymiser: options.pseudonymiser,
    modifiedDates: options.modifiedDates ?? false,
  });
  const bytes = await writeDicomBytes(file, source);
  return { input, bytes, actions, output: await readDicom(bytesSource(bytes)) };
}

const hasDcmdump = spawnSync('dcmdump', ['--version']).status === 0;

describe('deidentify (PS3.15 E Basic Application Level Confidentiality Profile)', () => {
  it.each([
    ['Explicit VR Little Endian', EXPLICIT],
    ['Implicit VR Little Endian', IMPLICIT],
  ])('leaves no identifying value anywhere in the output bytes (%s)', async (_name, transferSyntax) => {
    const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
    for (const spec of [alice, aliceSecond, bob]) {
      const { input, bytes } = await run(spec, { transferSyntax, pseudonymiser });
      const before = latin1(input);
      const after = latin1(bytes);
      for (const value of identifyingValues(spec)) {
        expect(before, `the test file holds ${value}`).toContain(value);
        expect(after, `${value} survived`).not.toContain(value);
      }
    }
  });

  it('replaces UIDs consistently across files, keeps the pixel data byte for byte, records what it did', async () => {
    const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
    const first = await run(alice, { pseudonymiser });
    const second = await run(aliceSecond, { pseudonymiser });
    const newFirstUid = stringOf(first.output.dataset, Tag.SopInstanceUid);
    expect(newFirstUid).toMatch(GENERATED_UID_PATTERN);
    const reference = findElement(second.output.dataset, 0x00081140)?.items?.[0] ?? [];
    expect(stringOf(reference, 0x00081155)).toBe(newFirstUid); // the reference follows its target
    expect(stringOf(second.output.dataset, Tag.StudyInstanceUid)).toBe(
      stringOf(first.output.dataset, Tag.StudyInstanceUid),
    );
    expect(stringOf(second.output.dataset, Tag.SopInstanceUid)).not.toBe(newFirstUid);
    expect(stringOf(first.output.meta, Tag.MediaStorageSopInstanceUid)).toBe(newFirstUid);
    expect(stringOf(first.output.meta, Tag.ImplementationClassUid)).toBe(IMPLEMENTATION_CLASS_UID);
    expect(stringOf(first.output.dataset, Tag.SopClassUid)).toBe('1.2.840.10008.5.1.4.1.1.2'); // a class, not an instance

    expect(findElement(first.output.dataset, Tag.PixelData)?.value).toEqual(pixels(4, 4));
    const pseudonym = stringOf(first.output.dataset, Tag.PatientId);
    expect(pseudonym).toMatch(PSEUDONYM_PATTERN);
    expect(stringOf(first.output.dataset, Tag.PatientName)).toBe(pseudonym);
    expect(stringOf(second.output.dataset, Tag.PatientId)).toBe(pseudonym);
    expect(stringOf(first.output.dataset, Tag.PatientIdentityRemoved)).toBe('YES');
    expect(stringOf(first.output.dataset, Tag.LongitudinalTemporalInformationModified)).toBe('REMOVED');
    expect(stringOf(first.output.dataset, Tag.DeidentificationMethod)).toBe(
      'Basic Application Confidentiality Profile',
    );
    const codes = findElement(first.output.dataset, Tag.DeidentificationMethodCodeSequence)?.items ?? [];
    expect(codes.map((item) => stringOf(item, Tag.CodeValue))).toEqual(['113100']);
    expect(findElement(first.output.dataset, 0x00101002)).toBeUndefined(); // Other Patient IDs Sequence: X
    expect(findElement(first.output.dataset, Tag.StudyDate)?.value?.length).toBe(0); // Z
    expect(first.output.dataset.some((e) => (e.tag >>> 16) % 2 === 1)).toBe(false);
    const region = findElement(first.output.dataset, 0x00082218)?.items?.[0] ?? [];
    expect(stringOf(region, 0x00080104)).toBe('Chest'); // a kept sequence keeps what identifies nobody
    expect(region.some((e) => e.tag === 0x00101000 || (e.tag >>> 16) % 2 === 1)).toBe(false);

    const byTag = new Map(first.actions.map((a) => [`${a.tag} ${a.action}`, a.count]));
    expect(byTag.get('(0010,0010) Z')).toBe(1);
    expect(byTag.get('(0008,0018) U')).toBe(1);
    expect(byTag.get('(6000,3000) X')).toBe(1);
    expect(first.actions.find((a) => a.name === 'Private attribute')?.count).toBe(3);
  });

  it('gives another secret other UIDs and pseudonyms (nothing to link across uploads)', async () => {
    const one = await run(alice, { pseudonymiser: new Pseudonymiser(Pseudonymiser.newSecret()) });
    const two = await run(alice, { pseudonymiser: new Pseudonymiser(Pseudonymiser.newSecret()) });
    expect(stringOf(one.output.dataset, Tag.SopInstanceUid)).not.toBe(stringOf(two.output.dataset, Tag.SopInstanceUid));
    expect(stringOf(one.output.dataset, Tag.PatientId)).not.toBe(stringOf(two.output.dataset, Tag.PatientId));
  });

  it('with Modified Dates shifts every date of a patient by one offset, keeping intervals, and says so', async () => {
    const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
    const first = await run(alice, { pseudonymiser, modifiedDates: true });
    const later = await run(aliceLater, { pseudonymiser, modifiedDates: true });
    const other = await run(bob, { pseudonymiser, modifiedDates: true });
    const day = (file: DicomFile): number => {
      const text = stringOf(file.dataset, Tag.StudyDate);
      return Date.UTC(Number(text.slice(0, 4)), Number(text.slice(4, 6)) - 1, Number(text.slice(6, 8))) / 86_400_000;
    };
    expect(stringOf(first.output.dataset, Tag.StudyDate)).not.toBe(alice.studyDate);
    expect(day(later.output) - day(first.output)).toBe((Date.UTC(2024, 0, 1) - Date.UTC(2023, 3, 12)) / 86_400_000);
    const shift = day(first.output) - Date.UTC(2023, 3, 12) / 86_400_000;
    expect(shift).toBeLessThanOrEqual(-365);
    expect(stringOf(first.output.dataset, 0x0008002a)).toMatch(/^\d{8}101530\.123$/); // DT: the date part moved
    expect(stringOf(first.output.dataset, 0x0008002a).slice(0, 8)).toBe(stringOf(first.output.dataset, Tag.StudyDate));
    expect(stringOf(first.output.dataset, 0x00080030)).toBe('101530'); // TM stays
    expect(findElement(first.output.dataset, 0x00100030)?.value?.length ?? 0).toBe(0); // birth date: Z, not an option's C
    expect(stringOf(first.output.dataset, Tag.LongitudinalTemporalInformationModified)).toBe('MODIFIED');
    const codes = findElement(first.output.dataset, Tag.DeidentificationMethodCodeSequence)?.items ?? [];
    expect(codes.map((item) => stringOf(item, Tag.CodeValue))).toEqual(['113100', '113107']);
    expect(auditDeidentified(first.output)).toEqual([]);
    expect(stringOf(other.output.dataset, Tag.StudyDate)).toMatch(/^\d{8}$/);
  });

  it('keeps encapsulated pixel data fragments byte for byte', async () => {
    const fragment = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 5, 6, 0xff, 0xd9]);
    const dataset = hostileCt(alice).map((n) =>
      n.tag === Tag.PixelData ? { tag: Tag.PixelData, vr: 'OB' as const, fragments: [new Uint8Array(0), fragment] } : n,
    );
    const input = part10(dataset, { transferSyntax: JPEG_BASELINE });
    const source = bytesSource(input);
    const { file } = await deidentify(await readDicom(source), {
      pseudonymiser: new Pseudonymiser(Pseudonymiser.newSecret()),
      modifiedDates: false,
    });
    const output = await writeDicomBytes(file, source);
    const again = await readDicom(bytesSource(output));
    const range = findElement(again.dataset, Tag.PixelData)?.fragments?.[1];
    expect(range && output.subarray(range.offset, range.offset + range.length)).toEqual(fragment);
    expect(again.transferSyntaxUid).toBe(JPEG_BASELINE);
  });

  it('audit: the output passes, the input fails naming each tag', async () => {
    const { input, output } = await run(bob, { pseudonymiser: new Pseudonymiser(Pseudonymiser.newSecret()) });
    expect(auditDeidentified(output)).toEqual([]);
    const findings = auditDeidentified(await readDicom(bytesSource(input)));
    const tags = findings.map((f) => f.tag);
    expect(tags).toEqual(
      expect.arrayContaining([
        '(0012,0062)',
        '(0002,0003)',
        '(0010,0010)',
        '(0010,0020)',
        '(0008,0018)',
        '(0009,0010)',
        '(6000,3000)',
      ]),
    );
    expect(findings.find((f) => f.tag === '(0010,0030)')?.problem).toBe('has a value and must be empty');
    expect(findings.find((f) => f.tag === '(0009,1001)')?.problem).toBe('is present and must be removed');
  });

  it('plans the same actions it then takes (the tags to anonymize shown before confirming)', async () => {
    const file = await readDicom(bytesSource(part10(hostileCt(aliceSecond))));
    const plan = planDeidentification(file.dataset, { modifiedDates: false });
    const { actions } = await deidentify(file, {
      pseudonymiser: new Pseudonymiser(Pseudonymiser.newSecret()),
      modifiedDates: false,
    });
    expect(plan).toEqual(actions);
    expect(plan.map((a) => a.tag)).toContain('(0008,1155)');
  });

  it.skipIf(!hasDcmdump)('DCMTK dcmdump reads every output and finds no identifying value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dicom-deid-'));
    try {
      const pseudonymiser = new Pseudonymiser(Pseudonymiser.newSecret());
      for (const [index, [spec, transferSyntax]] of (
        [
          [alice, EXPLICIT],
          [aliceSecond, IMPLICIT],
          [bob, EXPLICIT],
        ] as const
      ).entries()) {
        const { bytes } = await run(spec, { transferSyntax, pseudonymiser, modifiedDates: index === 2 });
        const path = join(dir, `out-${index}.dcm`);
        writeFileSync(path, bytes);
        const dump = spawnSync('dcmdump', ['+L', path], { encoding: 'utf8' });
        expect(dump.status, dump.stderr).toBe(0);
        expect(dump.stderr).not.toMatch(/E:|W:/);
        expect(dump.stdout).toContain('(0012,0062) CS [YES]');
        for (const value of identifyingValues(spec)) expect(dump.stdout).not.toContain(value);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
