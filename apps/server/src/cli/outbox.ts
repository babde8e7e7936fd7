import { parseArgs } from 'node:util';
import { outboxQuerySchema, outboxSchema, type OutboxMail } from '@insilico/contracts';
import { ConfigError, loadConfig } from '../config';
import { createOperatorContext } from '../context';
import { openDatabase, pgliteDirIn } from '../db/client';
import { callOperator, runningServer } from './running-server';

const usage = 'Usage: npm run outbox -- [--to <e-mail>] [--limit <1-200, default 20>] [--json]';

/**
 * `npm run outbox`: the newest mails of the outbox (invitation links in the embedded default, where
 * no mail is sent). With the embedded database it asks the running server (only one process can
 * open that database), or reads the database directly when no server runs; with PostgreSQL it
 * reads the database.
 */
async function main(argv: string[]): Promise<void> {
  let options;
  try {
    options = parseArgs({
      args: argv,
      options: { to: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } },
    }).values;
  } catch {
    throw new ConfigError(usage);
  }
  const query = outboxQuerySchema.safeParse({ to: options.to, limit: options.limit });
  if (!query.success) throw new ConfigError(usage);
  const { to, limit } = query.data;
  const config = loadConfig();
  const server = config.databaseUrl ? null : runningServer(config.dataDir);
  let mails: OutboxMail[];
  if (server) {
    const search = new URLSearchParams({ limit: String(limit), ...(to ? { to } : {}) });
    mails = outboxSchema.parse(await callOperator(server, `/api/operator/outbox?${search}`)).items;
  } else {
    const db = await openDatabase(
      config.databaseUrl ? { url: config.databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDirIn(config.dataDir) },
    );
    try {
      mails = await createOperatorContext(db.orm).mail.outbox(limit, to);
    } finally {
      await db.close();
    }
  }
  if (options.json) console.log(JSON.stringify(mails, null, 2));
  else print(mails);
}

function print(mails: OutboxMail[]): void {
  if (mails.length === 0) {
    console.log('The outbox is empty.');
    return;
  }
  for (const mail of mails) {
    console.log(`── ${mail.createdAt}  to ${mail.to}  ${mail.sentAt ? `(sent ${mail.sentAt})` : '(not sent)'}`);
    console.log(`Subject: ${mail.subject}\n\n${mail.text}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
