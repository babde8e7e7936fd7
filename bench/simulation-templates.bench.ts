// `npm run bench -- simulation-templates`: the simulation templates of packages/scenarios on a synthetic patient at a
// resolution (default coarse; TEMPLATE_RESOLUTION=standard …), as the product runs them (case built from the room,
// the engine's runCase, THREADS engine threads, default 1 as the server's simulation job). Each kind runs for
// TEMPLATE_SECONDS of wall time after its first step (default 60) and is then cancelled. Reported per kind: its
// particles (moving + wall) against the set-up's estimate, the case build, the steps per simulated millisecond
// (acoustic and advection for the flow kinds, solid steps for the solid), the throughput in µs of CPU per particle and
// step (the steps the estimate counts: acoustic for a fluid), and the whole run projected from the CPU time per
// simulated second so far, against the set-up's estimate. CPU time, not wall time: on the shared 2-core machine the
// wall clock measures the other agents (with one engine thread the process's CPU is that thread's, the event loop idle
// meanwhile). Issue 16 "Speed": the coarse fluid template within 5 minutes on 2 cores.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Resolution, type SimulationKind } from '../packages/scenarios/src/index';
import { runCase } from '../packages/sph/src/index';
import { templateCase } from './templateRoom';

const resolution = (process.env.TEMPLATE_RESOLUTION ?? 'coarse') as Resolution;
const budget = Number(process.env.TEMPLATE_SECONDS ?? 60);
const threads = Number(process.env.THREADS ?? 1);
const kinds = (process.env.TEMPLATE_KINDS ?? 'fluid,particle,solid').split(',') as SimulationKind[];

/** Seconds of CPU (user + system) of this process between two readings. */
const cpuSeconds = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1e6;

console.log(
  `${resolution} templates, ${threads} engine thread(s), ${budget} s of wall time each, load average ` +
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
);
for (const kind of kinds) {
  const setUpCpu = process.cpuUsage();
  const built = templateCase(20261125, 7, kind, resolution);
  const setUp = cpuSeconds(setUpCpu, process.cpuUsage());
  const dir = await mkdtemp(join(tmpdir(), `template-${kind}-`));
  try {
    for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
    const controller = new AbortController();
    let steps = 0;
    const begin = process.cpuUsage();
    let started = begin;
    let firstStepAt = 0;
    // The budget starts at the first step: building the case (filling the vessel) is timed on its own.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const { sim, manifest } = await runCase(
      { ...built.engineCase, threads },
      {
        caseDir: dir,
        outDir: join(dir, 'out'),
        signal: controller.signal,
        onProgress: () => {
          if (steps === 0) {
            started = process.cpuUsage();
            firstStepAt = performance.now();
            timer = setTimeout(() => controller.abort(), budget * 1000);
          }
          steps += 1;
        },
      },
    );
    clearTimeout(timer);
    const wall = (performance.now() - firstStepAt) / 1000;
    const running = cpuSeconds(started, process.cpuUsage());
    const build = cpuSeconds(begin, started);
    const moving = manifest.objects.reduce(
      (n, o) => n + (manifest.timesteps.at(-1)?.particleCounts?.[o.name] ?? o.particleCount),
      0,
    );
    const walls = sim.fluid?.wall.count ?? 0;
    const simulated = sim.counters.time;
    const endTime = built.engineCase.endTime;
    // The steps the estimate counts: a fluid's acoustic steps, a solid's steps.
    const counted = sim.fluid?.counters.acousticSteps ?? steps;
    const perSimulatedMs = (n: number) => (n / (simulated * 1000)).toFixed(1);
    const projected = build + (endTime / Math.max(simulated, 1e-12)) * running;
    const perParticleStep = (running * 1e6) / Math.max(1, counted) / Math.max(1, moving + walls);
    const e = built.estimate;
    console.log(
      JSON.stringify({
        kind,
        resolution,
        dp_mm: Number(e.dp_mm.toFixed(3)),
        moving,
        wall: walls,
        estimate_particles: e.particles,
        set_up_cpu_s: Number(setUp.toFixed(1)),
        build_cpu_s: Number(build.toFixed(1)),
        simulated_ms: Number((simulated * 1000).toFixed(3)),
        end_ms: Number((endTime * 1000).toFixed(1)),
        steps_per_ms: sim.fluid
          ? { acoustic: perSimulatedMs(counted), advection: perSimulatedMs(steps) }
          : { solid: perSimulatedMs(steps) },
        estimate_steps_per_ms: Number((e.steps / (e.endTime_s * 1000)).toFixed(1)),
        running_cpu_s: Number(running.toFixed(1)),
        running_wall_s: Number(wall.toFixed(1)),
        us_cpu_per_particle_step: Number(perParticleStep.toFixed(3)),
        projected_cpu_min: Number((projected / 60).toFixed(1)),
        estimate_min: Number((e.seconds / 60).toFixed(1)),
        rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
        load: Number(loadavg()[0]!.toFixed(1)),
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
