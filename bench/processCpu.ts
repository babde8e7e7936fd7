import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of a process tree, by part (Linux /proc; an empty reading elsewhere): this process's threads by name
 * (`node main` is the event loop: the server's requests, the bench's front and Playwright's client all run there)
 * and each child process by Chromium's `--type=` (browser, renderer, gpu-process, utility). Browser benchmarks take a
 * reading before and after a page load and print the difference: on a 2-core machine it says who held the cores
 * while the page waited.
 */
export type CpuReading = Map<string, { part: string; ms: number }>;

const ticksPerSecond = 100; // USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK)

/** utime + stime of a /proc stat line, ms, and its parent's pid; null when the process went away. */
function statOf(path: string): { ms: number; ppid: number; comm: string } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  // The name is in brackets and may hold spaces: the fields are counted after its closing bracket.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // Fields from the state (3rd of stat): ppid is the 4th, utime the 14th, stime the 15th.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { ms: (ticks * 1000) / ticksPerSecond, ppid, comm };
}

function childKind(pid: number): string {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'gone';
  }
  // Chromium rewrites its command line as one string (its process title): split on spaces as well.
  const args = cmdline.split(/[\0 ]/);
  const program = (args[0] ?? '').split('/').at(-1) ?? '';
  const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  if (!program.includes('chrom')) return program || 'other';
  const type = flag('type');
  const subType = flag('utility-sub-type');
  return `chromium ${type ?? 'browser'}${subType ? ` (${subType})` : ''}`;
}

/** CPU ms so far of each thread of this process and of each descendant process, by thread or process id. */
export function readCpu(): CpuReading {
  const reading: CpuReading = new Map();
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return reading;
  }
  for (const tid of tasks) {
    const stat = statOf(`/proc/${process.pid}/task/${tid}/stat`);
    if (!stat) continue;
    reading.set(`t${tid}`, {
      part: Number(tid) === process.pid ? 'node main' : `node ${stat.comm.trim()}`,
      ms: stat.ms,
    });
  }
  // Descendants: every process whose chain of parents reaches this one (a process's own stat counts its threads).
  const parents = new Map<number, number>();
  const seen: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const stat = statOf(`/proc/${pid}/stat`);
    if (!stat) continue;
    parents.set(pid, stat.ppid);
    seen.push(pid);
  }
  for (const pid of seen) {
    let up = parents.get(pid);
    for (let hops = 0; up !== undefined && up !== process.pid && hops < 16; hops++) up = parents.get(up);
    if (up !== process.pid) continue;
    // By thread: a renderer's main thread (CrRendererMain) is the page's critical path, its other threads are not.
    const kind = childKind(pid);
    let threads: string[] = [];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of threads) {
      const stat = statOf(`/proc/${pid}/task/${tid}/stat`);
      if (stat) reading.set(`t${tid}`, { part: `${kind} · ${stat.comm.trim()}`, ms: stat.ms });
    }
  }
  return reading;
}

/**
 * CPU ms spent between two readings, summed by part: each thread or process counts from its first reading (from
 * zero when it started in between); one that ended in between is not counted (its last moments are lost).
 */
export function cpuSince(before: CpuReading, after: CpuReading): Map<string, number> {
  const spent = new Map<string, number>();
  for (const [id, { part, ms }] of after) spent.set(part, (spent.get(part) ?? 0) + ms - (before.get(id)?.ms ?? 0));
  return spent;
}
