import {
  setSubscriptionSchema,
  simulationTestResolutionSchema,
  subscriptionPlans,
  type Subscription,
} from '@insilico/contracts';
import { analyticsReportSchema, type AnalyticsReport } from '@insilico/contracts/analytics';
import { ConfigError, loadConfig } from '../config';
import { createOperatorContext } from '../context';
import { openDatabase, pgliteDirIn } from '../db/client';
import type { AnalyticsOperator } from '../repositories/analytics.repository';
import type { SupportPerson } from '../repositories/support.repository';
import { setTestResolution } from '../services/simulation-test-resolution';
import type { WorkspaceOverview } from '../services/subscription.service';
import { formatAnalyticsReport } from './analytics-report';
import { callOperator, runningServer, type RunningServer } from './running-server';

const usage = [
  'Usage: npm run operator -- workspaces',
  `       npm run operator -- subscription <deviceId> <${subscriptionPlans.join('|')}> <seats>`,
  '       npm run operator -- support-staff',
  '       npm run operator -- support-staff <e-mail> on|off',
  '       npm run operator -- analytics [days, default 30]',
  '       npm run operator -- operators',
  '       npm run operator -- operators <e-mail> on|off',
  '       npm run operator -- simulation-test-resolution <deviceId> on|off',
].join('\n');

/** The operator's commands, answered by the running server (embedded) or the database itself. */
interface Operations {
  workspaces(): Promise<WorkspaceOverview[]>;
  setSubscription(change: { deviceId: string; plan: string; seats: number }): Promise<Subscription>;
  supportStaff(): Promise<SupportPerson[]>;
  setSupportStaff(email: string, isSupport: boolean): Promise<SupportPerson[]>;
  analytics(days: number): Promise<AnalyticsReport>;
  operators(): Promise<AnalyticsOperator[]>;
  setOperator(email: string, isOperator: boolean): Promise<AnalyticsOperator[]>;
  setTestResolution(deviceId: string, enabled: boolean): Promise<{ deviceId: string; testResolution: boolean }>;
}

/**
 * `npm run operator -- …`: plans and seats of workspaces, who is support staff, and whether a workspace may run
 * simulations at the 'test' resolution — things no browser session may change. With the embedded database it asks the running server (only one
 * process can open that database), or opens the database when no server runs; with PostgreSQL it
 * writes the database.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  const server = config.databaseUrl ? null : runningServer(config.dataDir);
  if (server) return run(command, rest, throughServer(server));
  const db = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDirIn(config.dataDir) },
  );
  try {
    const {
      subscriptions,
      supportStaff: staff,
      analytics,
      settings,
    } = createOperatorContext(db.orm, {
      analytics: config.analytics,
    });
    await run(command, rest, {
      workspaces: () => subscriptions.overview(),
      setSubscription: (change) => subscriptions.set(setSubscriptionSchema.parse(change)),
      supportStaff: () => staff.list(),
      setSupportStaff: (email, isSupport) => staff.set(email, isSupport),
      analytics: (days) => analytics.report(days),
      operators: () => analytics.operators(),
      setOperator: (email, isOperator) => analytics.setOperator(email, isOperator),
      setTestResolution: (deviceId, enabled) => setTestResolution(settings, deviceId, enabled),
    });
  } finally {
    await db.close();
  }
}

function throughServer(server: RunningServer): Operations {
  const items = <T>(answer: unknown) => (answer as { items: T[] }).items;
  return {
    workspaces: async () => items<WorkspaceOverview>(await callOperator(server, '/api/operator/workspaces')),
    setSubscription: async (change) =>
      (await callOperator(server, '/api/operator/subscription', { method: 'POST', body: change })) as Subscription,
    supportStaff: async () => items<SupportPerson>(await callOperator(server, '/api/operator/support-staff')),
    setSupportStaff: async (email, isSupport) =>
      items<SupportPerson>(
        await callOperator(server, '/api/operator/support-staff', { method: 'POST', body: { email, isSupport } }),
      ),
    analytics: async (days) =>
      analyticsReportSchema.parse(await callOperator(server, `/api/operator/analytics?days=${days}`)),
    operators: async () => items<AnalyticsOperator>(await callOperator(server, '/api/operator/operators')),
    setOperator: async (email, isOperator) =>
      items<AnalyticsOperator>(
        await callOperator(server, '/api/operator/operators', { method: 'POST', body: { email, isOperator } }),
      ),
    setTestResolution: async (deviceId, enabled) =>
      (await callOperator(server, '/api/operator/simulation-test-resolution', {
        method: 'POST',
        body: { deviceId, enabled },
      })) as { deviceId: string; testResolution: boolean },
  };
}

async function run(command: string | undefined, args: string[], operations: Operations): Promise<void> {
  if (command === 'workspaces' && args.length === 0) {
    const workspaces = await operations.workspaces();
    if (workspaces.length === 0) console.log('There is no device workspace yet.');
    for (const workspace of workspaces)
      console.log(
        `${workspace.deviceId}  ${workspace.deviceName} (${workspace.companyName})  plan ${workspace.plan}, ` +
          `${workspace.seatsUsed} of ${workspace.seats} seats used  admins: ${workspace.adminEmails.join(', ') || '–'}`,
      );
    return;
  }
  if (command === 'subscription' && args.length === 3) {
    const [deviceId, plan, seats] = args as [string, string, string];
    const change = setSubscriptionSchema.safeParse({ deviceId, plan, seats: Number(seats) });
    if (!change.success)
      throw new ConfigError(`${change.error.issues.map((issue) => issue.message).join('; ')}\n${usage}`);
    const subscription = await operations.setSubscription(change.data);
    console.log(
      `${subscription.deviceName}: plan ${subscription.plan}, ${subscription.seats} seats (${subscription.seatsUsed} in use).`,
    );
    return;
  }
  if (command === 'support-staff' && args.length === 0) {
    const staff = await operations.supportStaff();
    console.log(staff.length === 0 ? 'Nobody is support staff.' : staff.map(describe).join('\n'));
    return;
  }
  if (command === 'support-staff' && args.length === 2 && (args[1] === 'on' || args[1] === 'off')) {
    for (const person of await operations.setSupportStaff(args[0]!, args[1] === 'on')) console.log(describe(person));
    return;
  }
  if (command === 'analytics' && args.length <= 1) {
    const days = args[0] === undefined ? 30 : Number(args[0]);
    console.log(formatAnalyticsReport(await operations.analytics(days)));
    return;
  }
  if (command === 'operators' && args.length === 0) {
    const operators = await operations.operators();
    console.log(
      operators.length === 0
        ? 'Nobody reads the analytics in the browser.'
        : operators.map(describeOperator).join('\n'),
    );
    return;
  }
  if (command === 'operators' && args.length === 2 && (args[1] === 'on' || args[1] === 'off')) {
    for (const person of await operations.setOperator(args[0]!, args[1] === 'on'))
      console.log(describeOperator(person));
    return;
  }
  if (command === 'simulation-test-resolution' && args.length === 2 && (args[1] === 'on' || args[1] === 'off')) {
    const change = simulationTestResolutionSchema.safeParse({ deviceId: args[0], enabled: args[1] === 'on' });
    if (!change.success) throw new ConfigError(`The workspace is given by its device id (a UUID).\n${usage}`);
    const answer = await operations.setTestResolution(change.data.deviceId, change.data.enabled);
    console.log(
      `${answer.deviceId}: the test resolution is ${answer.testResolution ? 'on' : 'off'} for its simulations.`,
    );
    return;
  }
  throw new ConfigError(usage);
}

function describeOperator(person: AnalyticsOperator): string {
  return `${person.email} (${person.fullName}): ${person.isOperator ? 'reads the analytics (/analytics)' : 'not an operator'}`;
}

function describe(person: SupportPerson): string {
  return `${person.email} (${person.fullName}): ${person.isSupport ? 'support staff' : 'not support staff'}`;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
