import { existsSync, readFileSync } from 'node:fs';
import { serverFile } from '../server';

export interface RunningServer {
  port: number;
  operatorToken: string;
}

/**
 * The embedded-database server running on DATA_DIR, as announced in its server.json, or null when
 * none runs (then a command may open the database itself: only one process can).
 */
export function runningServer(dataDir: string): RunningServer | null {
  const announced = serverFile(dataDir);
  if (!existsSync(announced)) return null;
  const server = JSON.parse(readFileSync(announced, 'utf8')) as { pid: number; port: number; operatorToken: string };
  return isAlive(server.pid) ? { port: server.port, operatorToken: server.operatorToken } : null;
}

/** Calls an operator route of the running server; throws with the server's answer on refusal. */
export async function callOperator(
  server: RunningServer,
  path: string,
  init: { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${server.operatorToken}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`The running server refused: ${response.status} ${await response.text()}`);
  return response.json();
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
