import { describe, expect, it } from 'vitest';
import { hostileCt, part10, type Node, type PatientSpec } from '../test/syntheticDicom';
import { burnedInReasons } from './burnedIn';
import { bytesSource } from './byteSource';
import { readDicom } from './reader';
import { buildTree, summarise, type FileSummary } from './tree';

const base: PatientSpec = {
  name: 'DOE^JANE',
  id: 'P1',
  birthDate: '19500101',
  studyUid: '1.2.3.1',
  studyDate: '20230101',
  seriesUid: '1.2.3.1.1',
  sopUid: '1.2.3.1.1.1',
};

async function summary(
  path: string,
  spec: PatientSpec,
  extra: (nodes: Node[]) => Node[] = (n) => n,
): Promise<FileSummary> {
  const file = await readDicom(bytesSource(part10(extra(hostileCt(spec)))));
  return summarise(path, file, { modifiedDates: false });
}

describe('patient → study → series tree', () => {
  it('groups files by patient, study and series with descriptions, modality, image counts and tags to anonymize', async () => {
    const files = [
      await summary('a/1.dcm', base),
      await summary('a/2.dcm', { ...base, sopUid: '1.2.3.1.1.2' }),
      await summary('a/2-copy.dcm', { ...base, sopUid: '1.2.3.1.1.2' }), // the same instance twice counts once
      await summary('a/3.dcm', {
        ...base,
        seriesUid: '1.2.3.1.2',
        sopUid: '1.2.3.1.2.1',
        seriesDescription: 'Venous phase',
      }),
      await summary('b/1.dcm', {
        ...base,
        name: 'ROE^RICHARD',
        id: 'P2',
        studyUid: '1.2.3.2',
        seriesUid: '1.2.3.2.1',
        sopUid: '1.2.3.2.1.1',
      }),
      await summary(
        'c/1.dcm',
        {
          ...base,
          name: 'POE^EDGAR',
          id: 'P3',
          studyUid: '1.2.3.3',
          seriesUid: '1.2.3.3.1',
          sopUid: '1.2.3.3.1.1',
          modality: 'MR',
        },
        (nodes) => [
          ...nodes.filter((n) => n.tag < 0x00280008),
          { tag: 0x00280008, vr: 'IS', text: '12' },
          ...nodes.filter((n) => n.tag > 0x00280008),
        ],
      ),
    ];
    const tree = buildTree(files);
    expect(tree.map((p) => [p.id, p.name])).toEqual([
      ['P1', 'DOE JANE'],
      ['P2', 'ROE RICHARD'],
      ['P3', 'POE EDGAR'],
    ]);
    const [first] = tree;
    expect(first?.studies).toHaveLength(1);
    expect(first?.studies[0]?.description).toBe('CT THORAX ABDOMEN');
    expect(first?.studies[0]?.series.map((s) => [s.description, s.modality, s.images, s.files])).toEqual([
      ['Arterial phase 1mm', 'CT', 2, ['a/1.dcm', 'a/2.dcm']],
      ['Venous phase', 'CT', 1, ['a/3.dcm']],
    ]);
    expect(tree[2]?.studies[0]?.series[0]?.images).toBe(12); // a multi-frame file: its frames are images
    expect(tree[2]?.studies[0]?.series[0]?.modality).toBe('MR');
    const tags = first?.studies[0]?.series[0]?.tagsToAnonymize ?? [];
    expect(tags.find((t) => t.tag === '(0010,0010)')).toEqual({
      tag: '(0010,0010)',
      name: "Patient's Name",
      action: 'Z',
      count: 2,
    });
    expect(tags.find((t) => t.name === 'Private attribute')?.count).toBe(6);
  });
});

describe('burned-in text', () => {
  const reasons = async (extra: Node[], spec: Partial<PatientSpec> = {}): Promise<string[]> => {
    const nodes = [...hostileCt({ ...base, ...spec }), ...extra].sort((a, b) => a.tag - b.tag);
    const file = await readDicom(bytesSource(part10(nodes)));
    return burnedInReasons(file.dataset);
  };

  it('flags Burned In Annotation YES, secondary captures, screen saves, ultrasound, dose series, manufacturer dose pages', async () => {
    expect(await reasons([])).toEqual([]);
    expect(await reasons([{ tag: 0x00280301, vr: 'CS', text: 'YES' }])).toEqual(['Burned In Annotation is YES']);
    const capture = hostileCt(base).map((n) =>
      n.tag === 0x00080016 ? { tag: n.tag, vr: 'UI', text: '1.2.840.10008.5.1.4.1.1.7' } : n,
    );
    expect(burnedInReasons((await readDicom(bytesSource(part10(capture)))).dataset)).toContain(
      'Secondary capture (often a screenshot)',
    );
    expect(await reasons([], { modality: 'US' })).toContain('Ultrasound images usually carry burned-in text');
    expect(await reasons([], { seriesDescription: 'Dose Report' })).toContain(
      'Series description suggests a dose report, protocol page or screen capture',
    );
    const ge = hostileCt(base).map((n) =>
      n.tag === 0x00080070
        ? { tag: n.tag, vr: 'LO', text: 'GE MEDICAL SYSTEMS' }
        : n.tag === 0x00200011
          ? { tag: n.tag, vr: 'IS', text: '999' }
          : n,
    );
    expect(burnedInReasons((await readDicom(bytesSource(part10(ge)))).dataset)).toEqual([
      'GE dose report series (number 999)',
    ]);
  });
});
