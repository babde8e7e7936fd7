/**
 * The in-process test servers started and not yet stopped. Test files may share a vitest worker process
 * (`isolate: false`, docs/decisions/ci-time.md): a server a file leaves running would go on polling its jobs,
 * holding its database and taking CPU from every file after it, so the server project's setup file
 * (`shared-process.setup.ts`) stops what a file left and fails that file.
 */
interface Stoppable {
  origin: string;
  stop(): Promise<void>;
}

const running = new Set<Stoppable>();

/** Tracks a started server; answers its removal, for its `stop`. */
export function trackRunning(server: Stoppable): () => void {
  running.add(server);
  return () => running.delete(server);
}

/** Stops every server still running and answers their origins (none when the file stopped its own). */
export async function stopLeftRunning(): Promise<string[]> {
  const left = [...running];
  running.clear();
  await Promise.allSettled(left.map((server) => server.stop()));
  return left.map((server) => server.origin);
}
