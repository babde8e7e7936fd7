// What serialising the main read endpoints' answers costs (issue 14 item 12b: the lever named after the statements).
// The server of `bench/loadServer.ts` (one user: 20 projects, 6 cohorts, 30 notifications) answers each endpoint
// once; then this process serialises those answers SERIALISATION_ITERATIONS times (default 2,000) in
// SERIALISATION_ROUNDS interleaved rounds (default 5) the way the server does today (fastify-type-provider-zod: the
// response schema's `safeEncode`, then `JSON.stringify`), with fast-json-stringify compiled from the schema's JSON
// Schema (what a precompiled serializer would cost), and with `JSON.stringify` alone (the floor). Prints µs per answer
// (median of the rounds); CPU bound in one thread, so the machine's load moves all three alike.
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { cohortEndpoints, notificationEndpoints, projectEndpoints } from '@insilico/contracts';
import type { LoadServerReady } from './loadServer';

const ITERATIONS = Number(process.env.SERIALISATION_ITERATIONS ?? 2000);
const ROUNDS = Number(process.env.SERIALISATION_ROUNDS ?? 5);

const child = fork(new URL('./loadServer.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, LOAD_SERVER_USERS: '1' },
});
let answers: { name: string; schema: z.ZodType; body: unknown }[];
try {
  const ready = await new Promise<LoadServerReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as LoadServerReady));
    child.once('exit', (code) => reject(new Error(`the load server exited (${code}) before it was ready`)));
  });
  const client = ready.clients[0]!;
  const get = async (path: string) => {
    const response = await fetch(`${ready.origin}${path}`, { headers: { cookie: client.cookie } });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return await response.json();
  };
  answers = [
    {
      name: 'projects overview',
      schema: projectEndpoints.overview.response[200],
      body: await get(`/api/devices/${client.deviceId}/projects/overview`),
    },
    {
      name: 'cohorts list',
      schema: cohortEndpoints.list.response[200],
      body: await get(`/api/devices/${client.deviceId}/cohorts`),
    },
    { name: 'notifications', schema: notificationEndpoints.list.response[200], body: await get('/api/notifications') },
  ];
} finally {
  child.send('stop');
}

const ways: [string, (schema: z.ZodType) => (data: unknown) => string][] = [
  [
    'zod encode + JSON.stringify (today)',
    (schema) => (data) => {
      const result = z.safeEncode(schema, data);
      if (result.error) throw result.error;
      return JSON.stringify(result.data);
    },
  ],
  [
    'fast-json-stringify (precompiled)',
    (schema) => fastJson(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as never),
  ],
  ['JSON.stringify alone', () => (data) => JSON.stringify(data)],
];

const perAnswer = new Map<string, number[]>();
const load = loadavg();
for (const { name, schema, body } of answers) {
  const serialisers = ways.map(([way, make]) => [way, make(schema)] as const);
  // The three must write the same JSON (else the comparison says nothing).
  const texts = serialisers.map(([, serialise]) => JSON.stringify(JSON.parse(serialise(body))));
  if (new Set(texts).size !== 1) throw new Error(`${name}: the serialisers disagree`);
  for (const [, serialise] of serialisers) for (let i = 0; i < 200; i++) serialise(body);
  for (let round = 0; round < ROUNDS; round++)
    for (const [way, serialise] of serialisers) {
      const started = process.cpuUsage();
      for (let i = 0; i < ITERATIONS; i++) serialise(body);
      const used = process.cpuUsage(started);
      const key = `${name}\t${way}`;
      perAnswer.set(key, [...(perAnswer.get(key) ?? []), (used.user + used.system) / ITERATIONS]);
    }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  `load average ${load.map((n) => n.toFixed(1)).join(' ')} → ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}; ${ROUNDS} rounds × ${ITERATIONS}; µs of CPU per answer (median of rounds)`,
);
for (const { name, body } of answers) {
  console.log(`${name} (${JSON.stringify(body).length.toLocaleString('en')} bytes)`);
  const today = median(perAnswer.get(`${name}\t${ways[0]![0]}`)!);
  for (const [way] of ways) {
    const us = median(perAnswer.get(`${name}\t${way}`)!);
    console.log(`  ${way.padEnd(38)} ${us.toFixed(1).padStart(7)} µs   ${(us / today).toFixed(2)} of today`);
  }
}
process.exit(0);
