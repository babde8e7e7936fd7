import { ConfigError, loadConfig } from '../config';
import { createOperatorContext } from '../context';
import { openDatabase, pgliteDirIn } from '../db/client';
import type { MaintenanceState } from '../services/maintenance.service';
import { callOperator, runningServer } from './running-server';

const usage =
  'Usage: npm run maintenance -- on "Text shown to users"\n       npm run maintenance -- off\n       npm run maintenance -- status';

/**
 * `npm run maintenance -- on "text" | off | status`. With PostgreSQL it writes the database that
 * every server reads. With the embedded database it asks the running server (only one process
 * can open that database), or writes the database directly when no server runs.
 */
async function main(argv: string[]): Promise<void> {
  const [mode, ...rest] = argv;
  if (mode !== 'on' && mode !== 'off' && mode !== 'status') throw new ConfigError(usage);
  const text = rest.join(' ');
  const config = loadConfig();
  const server = config.databaseUrl || mode === 'status' ? null : runningServer(config.dataDir);
  if (server) {
    const body = mode === 'on' ? { mode, text } : { mode };
    report((await callOperator(server, '/api/operator/maintenance', { method: 'POST', body })) as MaintenanceState);
    return;
  }
  const db = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDirIn(config.dataDir) },
  );
  try {
    const service = createOperatorContext(db.orm).maintenance;
    report(
      mode === 'on'
        ? await service.switchOn(text)
        : mode === 'off'
          ? await service.switchOff()
          : await service.current(),
    );
  } finally {
    await db.close();
  }
}

function report(state: MaintenanceState): void {
  console.log(
    state.maintenance_mode ? `Maintenance mode is ON: "${state.maintenance_text}"` : 'Maintenance mode is OFF.',
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
