import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { auditVerdictSchema, type AuditVerdict } from '@insilico/contracts';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, pgliteDirIn } from '../db/client';
import { AuditChainer } from '../events/audit-chainer';
import { DomainEventRepository } from '../events/domain-event.repository';
import { AuditService } from '../services/audit.service';
import { callOperator, runningServer } from './running-server';

const usage = [
  'Usage: npm run audit -- verify [--json]',
  '       npm run audit -- export [--format csv|json|zip] [--out <file>]',
].join('\n');

/** The audit service on the database itself (no server runs, or PostgreSQL); nobody is asked for a grant. */
async function withAudit<T>(work: (audit: AuditService) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDirIn(config.dataDir) },
  );
  try {
    const chainer = new AuditChainer(db.orm, { error: (details, message) => console.error(message, details) });
    return await work(
      new AuditService(
        new DomainEventRepository(db.orm),
        () => Promise.reject(new Error('No grants in the CLI.')),
        chainer,
      ),
    );
  } finally {
    await db.close();
  }
}

function print(verdict: AuditVerdict): void {
  if (verdict.ok) {
    console.log(`The audit trail is intact: ${verdict.rows} rows, every hash and link checks out.`);
    if (verdict.pending > 0) console.log(`${verdict.pending} newer event(s) are not linked yet.`);
  } else {
    console.log(`The audit trail is NOT intact: ${verdict.breaks.length} finding(s) in ${verdict.rows} rows.`);
    for (const found of verdict.breaks) console.log(`  row ${found.seq} (${found.problem}): ${found.message}`);
  }
  console.log(`Head: row ${verdict.headSeq}, hash ${verdict.headHash} (keep it to detect a later cut of the tail).`);
}

/**
 * `npm run audit -- verify`: recomputes the hash chain of the audit trail and names every edited, deleted or
 * inserted row (exit code 1 when any); `export` writes every row with its hashes (CSV, JSON with the verdict, or the ZIP of both with their SHA-256).
 * With the embedded database it asks the running server, or opens the database when none runs.
 */
async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        format: { type: 'string', default: 'csv' },
        out: { type: 'string' },
      },
    });
  } catch {
    throw new ConfigError(usage);
  }
  const [command] = parsed.positionals;
  const { values } = parsed;
  const config = loadConfig();
  const server = config.databaseUrl ? null : runningServer(config.dataDir);
  if (command === 'verify') {
    const verdict = server
      ? auditVerdictSchema.parse(await callOperator(server, '/api/operator/audit/verify'))
      : await withAudit((audit) => audit.verify());
    if (values.json) console.log(JSON.stringify(verdict, null, 2));
    else print(verdict);
    return verdict.ok ? 0 : 1;
  }
  if (command === 'export') {
    const format = z.enum(['csv', 'json', 'zip']).safeParse(values.format);
    if (!format.success) throw new ConfigError(usage);
    const fromServer = async () =>
      z
        .object({ body: z.string() })
        .parse(await callOperator(server!, `/api/operator/audit/export?format=${format.data}`)).body;
    const chosen = format.data;
    let body: string | Buffer;
    if (chosen === 'zip')
      body = server
        ? Buffer.from(await fromServer(), 'base64')
        : Buffer.from(await withAudit((audit) => audit.bundle(null)));
    else body = server ? await fromServer() : await withAudit((audit) => audit.export(null, chosen));
    if (values.out) writeFileSync(values.out, body);
    else process.stdout.write(body);
    return 0;
  }
  throw new ConfigError(usage);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
