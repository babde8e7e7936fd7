// `npm run sph -- <case.json> [--out <dir>] [--restart <checkpoint.bin>] [--export vtp,csv]`: runs an SPH case file
// (see caseFile.ts) with a progress bar on stderr and writes the result folder (manifest, frames, checkpoint).
// Ctrl-C cancels after the current step and still writes the checkpoint, from which --restart continues.
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CaseError, parseCase } from './caseFile';
import { caseDirOf, runCase } from './caseRunner';

/** Parsed command line. */
export interface CliArgs {
  casePath: string;
  outDir: string;
  restart?: string;
  exports: ('vtp' | 'csv')[];
}

const USAGE = 'usage: npm run sph -- <case.json> [--out <dir>] [--restart <checkpoint.bin>] [--export vtp,csv]';

/** Parses the arguments; throws an Error with the usage line when they are wrong. */
export function parseArgs(argv: readonly string[]): CliArgs {
  let casePath: string | undefined;
  let outDir: string | undefined;
  let restart: string | undefined;
  let exports: ('vtp' | 'csv')[] = [];
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!;
    const value = (): string => {
      const v = argv[++k];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--out') outDir = value();
    else if (a === '--restart') restart = value();
    else if (a === '--export') {
      const formats = value().split(',');
      const bad = formats.find((f) => f !== 'vtp' && f !== 'csv');
      if (bad !== undefined) throw new Error(`unknown export format '${bad}' (vtp, csv)\n${USAGE}`);
      exports = formats as ('vtp' | 'csv')[];
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}\n${USAGE}`);
    else if (casePath === undefined) casePath = a;
    else throw new Error(`one case file at a time\n${USAGE}`);
  }
  if (casePath === undefined) throw new Error(USAGE);
  const name = basename(casePath).replace(/\.json$/i, '');
  return {
    casePath,
    outDir: outDir ?? join(caseDirOf(casePath), `${name}-results`),
    ...(restart !== undefined ? { restart } : {}),
    exports,
  };
}

/** One line of the text progress bar: simulated time / end time. */
export function progressLine(fraction: number, endTime: number, width = 30): string {
  const f = Math.min(1, Math.max(0, fraction));
  const filled = Math.round(f * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(f * 100).toFixed(1).padStart(5)} %  t = ${(f * endTime).toPrecision(4)} / ${endTime} s`;
}

/** Runs the CLI; returns the process exit code (0 done, 1 error, 130 cancelled). */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    const text = await readFile(resolve(args.casePath), 'utf8').catch(() => {
      throw new Error(`cannot read the case file ${resolve(args.casePath)}`);
    });
    const c = parseCase(text);
    const restart = args.restart ? new Uint8Array(await readFile(resolve(args.restart))) : undefined;
    const controller = new AbortController();
    const onSigint = (): void => controller.abort();
    process.once('SIGINT', onSigint);
    let lastDraw = 0;
    const draw = (fraction: number, force = false): void => {
      const now = performance.now();
      if (!force && now - lastDraw < 100) return;
      lastDraw = now;
      process.stderr.write(`\r${progressLine(fraction, c.endTime)}`);
    };
    try {
      const started = performance.now();
      const { status, manifest } = await runCase(c, {
        caseDir: caseDirOf(args.casePath),
        outDir: args.outDir,
        ...(restart ? { restart } : {}),
        exports: args.exports,
        onProgress: (f) => draw(f),
        signal: controller.signal,
      });
      draw(status === 'completed' ? 1 : manifest.timesteps.at(-1)!.time / c.endTime, true);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      process.stderr.write(
        `\n${status === 'completed' ? 'done' : 'cancelled'} in ${seconds} s: ${manifest.timesteps.length} saved timesteps of ${manifest.objects.map((o) => `${o.name} (${o.particleCount} particles)`).join(', ')} in ${args.outDir}\n`,
      );
      return status === 'completed' ? 0 : 130;
    } finally {
      process.off('SIGINT', onSigint);
    }
  } catch (e) {
    process.stderr.write(`${e instanceof CaseError ? e.message : `error: ${(e as Error).message}`}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  void main(process.argv.slice(2)).then((code) => process.exit(code));
}
