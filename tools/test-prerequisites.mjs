// What `npm test` needs besides node_modules: Debian's Chromium for the browser journeys and a PostgreSQL server for
// the API tests' second leg. On a Debian machine where we are root, whatever is missing is installed (and said so);
// anywhere else a missing piece stops the run with the exact command to run. Without TEST_DATABASE_URL a private,
// throw-away PostgreSQL instance is started for the run (its own folder and port; the system's clusters are untouched).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const chromiumDefault = '/usr/bin/chromium';

const canInstallDebianPackages = () =>
  existsSync('/etc/debian_version') && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');

/** The newest PostgreSQL server binaries folder (Debian's layout, or initdb on PATH), or null. */
function postgresBinDir() {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => existsSync(join(debian, version, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const initdb = which.stdout.trim();
  return which.status === 0 && initdb ? initdb.slice(0, -'/initdb'.length) : null;
}

/**
 * Installs the Debian packages the run lacks (root on Debian only). Returns the problems left, each a sentence with
 * the command that fixes it; an empty list means everything is there.
 */
export function installMissingPrerequisites({ needPostgres }) {
  const chromium = process.env.CHROMIUM_PATH ?? chromiumDefault;
  const missing = [];
  if (!existsSync(chromium) && !process.env.CHROMIUM_PATH) missing.push('chromium');
  if (needPostgres && postgresBinDir() === null) missing.push('postgresql');
  // DCMTK's dcmdump is the independent reader the de-identification test checks its output with.
  if (spawnSync('sh', ['-c', 'command -v dcmdump']).status !== 0) missing.push('dcmtk');
  // poppler-utils' pdftotext is the independent reader the PDF exports (design history file) are read back with.
  if (spawnSync('sh', ['-c', 'command -v pdftotext']).status !== 0) missing.push('poppler-utils');
  // Info-ZIP's unzip is the independent reader the streamed evidence ZIP (large attachments) is checked with.
  if (spawnSync('sh', ['-c', 'command -v unzip']).status !== 0) missing.push('unzip');
  // Mesa's software OpenGL ES, on which the SPH engine's WebGPU backend is tested without a GPU (Debian only; the
  // tests skip, saying why, where no adapter can be created).
  for (const mesa of ['libegl-mesa0', 'libgles2', 'libgl1-mesa-dri']) {
    if (
      existsSync('/usr/bin/dpkg-query') &&
      spawnSync('dpkg-query', ['-W', '-f=${Status}', mesa]).stdout?.toString() !== 'install ok installed'
    ) {
      missing.push(mesa);
    }
  }
  if (missing.length > 0 && canInstallDebianPackages()) {
    console.log(`Installing Debian packages the tests need: ${missing.join(', ')} (apt-get, as root)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    const install =
      update.status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (!install || install.status !== 0) console.error('apt-get could not install them.');
  }
  const problems = [];
  if (!existsSync(chromium)) {
    problems.push(
      process.env.CHROMIUM_PATH
        ? `Chromium not found at CHROMIUM_PATH=${chromium}: point it at a Chromium binary.`
        : `Chromium not found at ${chromiumDefault}: run \`sudo apt-get install chromium\` (or set CHROMIUM_PATH).`,
    );
  }
  if (needPostgres && postgresBinDir() === null) {
    problems.push(
      'PostgreSQL not found (the API tests run on it too): run `sudo apt-get install postgresql`, ' +
        'or set TEST_DATABASE_URL to a server where the user may create databases.',
    );
  }
  return problems;
}

/**
 * Starts a private PostgreSQL instance (trust auth on 127.0.0.1, no fsync: it holds only test data) and returns its
 * URL and a synchronous stop. As root the server runs as the `postgres` user, since PostgreSQL refuses root.
 */
export function startPrivatePostgres(port) {
  const bin = postgresBinDir();
  const folder = mkdtempSync(join(tmpdir(), 'insilico-test-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const groups = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(folder, Number(ids.stdout), Number(groups.stdout));
  }
  const run = (tool, args) => {
    const [command, commandArgs] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    return spawnSync(command, commandArgs, { encoding: 'utf8' });
  };
  const data = join(folder, 'data');
  const init = run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${folder} -c fsync=off`;
  const start = run('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', 'start']);
  if (start.status !== 0) throw new Error(`PostgreSQL did not start: ${start.stderr}${start.stdout}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
