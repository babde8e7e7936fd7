import { afterAll } from 'vitest';
import { shareThreadsBetweenPools } from '../../src/cpu/pool';
import { stopLeftRunning } from './running-servers';

// The server project's test files share worker processes (`isolate: false`, docs/decisions/ci-time.md); this runs
// before each of them.

// The CPU thread of a file's last server, with the task modules it imported, serves the next file's first server.
shareThreadsBetweenPools(120_000);

// After the file's own afterAll hooks (vitest runs "after" hooks in the reverse order of their registration).
afterAll(async () => {
  const left = await stopLeftRunning();
  if (left.length > 0)
    throw new Error(
      `This test file left ${left.length} test server(s) running (${left.join(', ')}): stop them in its afterAll, ` +
        'since the next file may run in the same process.',
    );
});
