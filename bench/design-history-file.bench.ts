// `npm run bench -- design-history-file`: the design history file (issue 20 item 6) as PDF and as evidence ZIP, made
// from a synthetic record of N items (a quarter of each section, every fifth signed, each with its audit row), against
// a reference in the same run: the audit trail's own ZIP (CSV and JSON of the same rows, services/audit-bundle.ts).
// Both run in a CPU-pool thread in the server; here on the main thread, one at a time. Figures go to
// docs/benchmarks.md, "Design history file".
import type { DesignHistoryItem } from '@insilico/contracts';
import type { StoredRow } from '../apps/server/src/events/chain';
import { auditBundle } from '../apps/server/src/services/audit-bundle';
import { auditCsv, auditJson } from '../apps/server/src/services/audit-rows';
import { gathered } from '../apps/server/src/lib/streamed-output';
import {
  designHistoryFileStream,
  designHistoryParts,
  type DesignHistoryFileInput,
} from '../apps/server/src/services/design-history-bundle';

/** The file as a small export makes it: its parts, then the ZIP (no attached files) gathered. */
const renderDesignHistoryFile = async (input: DesignHistoryFileInput) =>
  gathered(designHistoryFileStream(await designHistoryParts(input), []));

const SIZES = (process.env.DESIGN_HISTORY_BENCH_ITEMS ?? '500,2000').split(',').map(Number);
const REPEATS = Number(process.env.DESIGN_HISTORY_BENCH_REPEATS ?? 3);
// Result snapshots in the evidence ZIP (issue 20 item 7): how many, of about how many kB of content each.
const SNAPSHOTS = (process.env.DESIGN_HISTORY_BENCH_SNAPSHOTS ?? '0').split(',').map(Number);
const SNAPSHOT_KB = Number(process.env.DESIGN_HISTORY_BENCH_SNAPSHOT_KB ?? 100);

function snapshots(count: number): DesignHistoryFileInput['resultSnapshots'] {
  const patients = Math.max(1, Math.round((SNAPSHOT_KB * 1024) / 40));
  return Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    objectType: 'analysis',
    objectId: `o-${i}`,
    projectId: 'p-1',
    revision: 1,
    codeVersion: '1.0.0',
    takenAt: '2026-11-28T05:00:00.000Z',
    contentHash: 'd'.repeat(64),
    content: { patients: Array.from({ length: patients }, (_, k) => ({ id: `SYN-${k}`, v: k * 0.137 })) },
  }));
}
const sections = ['input', 'output', 'evidence', 'review'] as const;

function record(n: number): { items: DesignHistoryItem[]; audit: StoredRow[] } {
  const items = Array.from({ length: n }, (_, i): DesignHistoryItem => ({
    id: i + 1,
    occurredAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    section: sections[i % 4]!,
    action: 'simulation.started',
    summary: `Ada Admin started a simulation in the project Valve (${i})`,
    actor: { id: 'u-1', name: 'Ada Admin' },
    project: { id: 'p-1', name: 'Valve' },
    reason: i % 7 === 0 ? 'Bench tests passed' : null,
    link: null,
    snapshot: { before: null, after: { name: `Run ${i}`, kind: 'fluid', resolution: 'coarse', heartRate_bpm: 70 } },
    entry: null,
    evidence: [],
    toBeRerun: null,
    record: { type: 'event', id: String(i + 1) },
    signatures:
      i % 5 === 0
        ? [
            {
              id: `s-${i}`,
              meaning: 'approval',
              signer: { id: 'u-1', name: 'Ada Admin' },
              signedAt: '2026-11-28T05:06:07.000Z',
              contentHash: 'a'.repeat(64),
              valid: true,
            },
          ]
        : [],
  }));
  const audit = items.map((item, i): StoredRow => ({
    seq: i + 1,
    id: item.id,
    occurredAt: item.occurredAt,
    actorId: 'u-1',
    actorName: 'Ada Admin',
    action: item.action,
    objectType: 'simulation',
    objectId: `o-${i}`,
    deviceId: 'd-1',
    projectId: 'p-1',
    before: null,
    after: (item.snapshot as { after: unknown }).after,
    reason: item.reason,
    requestId: `r-${i}`,
    prevHash: 'b'.repeat(64),
    hash: 'c'.repeat(64),
  }));
  return { items, audit };
}

async function median(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

for (const n of SIZES)
  for (const kept of SNAPSHOTS) {
    const { items, audit } = record(n);
    const input = (format: 'pdf' | 'zip'): DesignHistoryFileInput => ({
      format,
      generatedAt: '2026-11-28T06:00:00.000Z',
      generatedBy: 'Ada Admin',
      workspace: 'Valve D',
      deviceId: 'd-1',
      projectId: 'p-1',
      project: 'Valve',
      items,
      attachments: [],
      audit,
      signatures: [],
      resultSnapshots: snapshots(kept),
    });
    const pdf = await median(() => renderDesignHistoryFile(input('pdf')));
    const zip = await median(() => renderDesignHistoryFile(input('zip')));
    const verdict = { ok: true, headSeq: n, headHash: 'c'.repeat(64) };
    const reference = await median(() =>
      auditBundle({
        exportedAt: new Date('2026-11-28T06:00:00.000Z'),
        deviceId: 'd-1',
        rows: n,
        verdict,
        csv: auditCsv(audit),
        json: auditJson(
          new Date('2026-11-28T06:00:00.000Z'),
          'd-1',
          { ...verdict, rows: n, breaks: [], pending: 0, checkedAt: '' },
          audit,
        ),
      }),
    );
    console.log(
      `${String(n).padStart(5)} items, ${kept} snapshots of ${SNAPSHOT_KB} kB: PDF ${pdf.toFixed(0)} ms, evidence ZIP ${zip.toFixed(0)} ms; ` +
        `reference (audit ZIP of the same rows) ${reference.toFixed(0)} ms; ZIP ÷ reference ${(zip / reference).toFixed(1)}`,
    );
  }
