// Server CPU per signed-in read of the main endpoints (issue 14 item 12b), a figure that a shared machine's load
// moves far less than latency does: the server of `bench/loadServer.ts` (embedded database, or PostgreSQL with
// REQUEST_CPU_DATABASE_URL) serves one request at a time over loopback, and its process's CPU time (user + system,
// from /proc: Linux only) is read before and after REQUEST_CPU_REQUESTS (default 300) requests of each endpoint, in
// REQUEST_CPU_ROUNDS (default 3) interleaved rounds after a warm-up. Reference in the same run: `GET /api/health`.
// With PostgreSQL the database's own CPU is not in the figure (it is another process).
import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { LoadServerReady } from './loadServer';

const REQUESTS = Number(process.env.REQUEST_CPU_REQUESTS ?? 300);
const ROUNDS = Number(process.env.REQUEST_CPU_ROUNDS ?? 3);
const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** The process's CPU time so far, in ms (utime + stime of /proc/<pid>/stat). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}

const child = fork(new URL('./loadServer.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
  env: {
    ...process.env,
    LOAD_SERVER_USERS: process.env.LOAD_SERVER_USERS ?? '1',
    ...(process.env.REQUEST_CPU_DATABASE_URL ? { LOAD_SERVER_DATABASE_URL: process.env.REQUEST_CPU_DATABASE_URL } : {}),
  },
});
try {
  const ready = await new Promise<LoadServerReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as LoadServerReady));
    child.once('exit', (code) => reject(new Error(`the load server exited (${code}) before it was ready`)));
  });
  const client = ready.clients[0]!;
  const endpoints: [string, string, boolean][] = [
    ['health', '/api/health', false],
    ['projects overview', `/api/devices/${client.deviceId}/projects/overview`, true],
    ['cohorts list', `/api/devices/${client.deviceId}/cohorts`, true],
    ['notifications', '/api/notifications', true],
  ];
  const get = async (path: string, signedIn: boolean) => {
    const response = await fetch(`${ready.origin}${path}`, signedIn ? { headers: { cookie: client.cookie } } : {});
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    await response.arrayBuffer();
  };
  for (const [, path, signedIn] of endpoints) for (let i = 0; i < 30; i++) await get(path, signedIn);
  const pid = child.pid!;
  const cpu = new Map<string, number>();
  const wall = new Map<string, number[]>();
  const load = loadavg();
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, path, signedIn] of endpoints) {
      const before = cpuMs(pid);
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const started = performance.now();
        await get(path, signedIn);
        times.push(performance.now() - started);
      }
      cpu.set(name, (cpu.get(name) ?? 0) + cpuMs(pid) - before);
      wall.set(name, [...(wall.get(name) ?? []), ...times]);
    }
  const perRequest = (name: string) => cpu.get(name)! / (REQUESTS * ROUNDS);
  const median = (name: string) => {
    const sorted = [...wall.get(name)!].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  console.log(
    `${process.env.REQUEST_CPU_DATABASE_URL ? 'postgres' : 'embedded'}: ${ROUNDS} × ${REQUESTS} requests each, ` +
      `one at a time; load average ${load.map((n) => n.toFixed(1)).join(' / ')} → ` +
      `${loadavg()
        .map((n) => n.toFixed(1))
        .join(' / ')}`,
  );
  for (const [name] of endpoints)
    console.log(
      `${name.padEnd(18)} server CPU ${perRequest(name).toFixed(2).padStart(6)} ms/request ` +
        `(${(perRequest(name) / perRequest('health')).toFixed(1).padStart(5)} × health)   ` +
        `median latency ${median(name).toFixed(1).padStart(6)} ms`,
    );
} finally {
  child.send('stop');
}
