// `npm run bench -- simulation-estimate`: the coarse fluid template's pre-run estimate against the engine's own run,
// per patient and per backend, in one run (issue 16 "Speed": the estimate shown before a run must hold; the coarse
// fluid template within 5 minutes on 2 cores). For each patient of ESTIMATE_PATIENTS (seed:index of the synthetic
// generator; default patients 7 and 22, a light and a heavy one) and each backend of ESTIMATE_BACKENDS (default
// wasm,ts: ours and the reference, one after the other), the case is built from the room as the server builds it and
// run with the engine's runCase (1 engine thread, as the server's job) to its end, or for ESTIMATE_SECONDS of wall
// time after its first step (then the whole run is projected from the simulated time reached). Printed per run: the
// estimate (particles, steps, seconds), what the engine did (moving and wall particles, acoustic and advection steps,
// fill and run time, wall and process CPU) and the ratio of the measured (or projected) time to the estimate. Under
// load the CPU time is the comparable figure (the engine's one thread; the event loop idle meanwhile).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario, type Resolution } from '../packages/scenarios/src/index';
import { runCase } from '../packages/sph/src/index';
import { templateRoom } from './templateRoom';

const resolution = (process.env.ESTIMATE_RESOLUTION ?? 'coarse') as Resolution;
const budget = Number(process.env.ESTIMATE_SECONDS ?? 0);
const backends = (process.env.ESTIMATE_BACKENDS ?? 'wasm,ts').split(',') as ('ts' | 'wasm')[];
const patients = (process.env.ESTIMATE_PATIENTS ?? '20261125:7,20261125:22').split(',').map((s) => {
  const [seed, index] = s.split(':').map(Number);
  return { seed: seed!, index: index! };
});
const kind = process.env.ESTIMATE_KIND === 'particle' ? 'particle' : 'fluid';

console.log(
  `${resolution} ${kind} template, 1 engine thread, ${budget > 0 ? `${budget} s of wall time` : 'whole runs'}, ` +
    `load average ${loadavg()[0]!.toFixed(1)}`,
);
for (const { seed, index } of patients) {
  const { patient, device } = templateRoom(seed, index);
  const built = buildScenario({ patient, phase: 'end-diastole', kind, resolution, parameters: {}, devices: [device] });
  const e = built.estimate;
  for (const backend of backends) {
    const dir = await mkdtemp(join(tmpdir(), `estimate-${seed}-${index}-`));
    try {
      for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
      const controller = new AbortController();
      let started = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const begin = performance.now();
      const cpuBegin = process.cpuUsage();
      let cpuStarted = cpuBegin;
      const { sim, manifest } = await runCase(
        { ...built.engineCase, threads: 1, backend },
        {
          caseDir: dir,
          outDir: join(dir, 'out'),
          signal: controller.signal,
          onProgress: () => {
            if (started === 0) {
              started = performance.now();
              cpuStarted = process.cpuUsage();
              if (budget > 0) timer = setTimeout(() => controller.abort(), budget * 1000);
            }
          },
        },
      );
      clearTimeout(timer);
      const end = performance.now();
      // CPU time of the process (the engine's one thread, the event loop idle meanwhile): under load the comparable
      // figure; on a quiet machine it is the wall time.
      const cpuEnd = process.cpuUsage();
      const cpu = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1e6;
      const fillCpu = cpu(cpuBegin, cpuStarted);
      const runningCpu = cpu(cpuStarted, cpuEnd);
      const fluid = sim.fluid!;
      // Moving particles vary as the inlet fills and the outlet drains: their mean over the saved timesteps.
      const counts = manifest.timesteps.map((t) => t.particleCounts?.[manifest.objects[0]!.name] ?? fluid.fluid.count);
      const moving = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
      const fill = (started - begin) / 1000;
      const running = (end - started) / 1000;
      const simulated = sim.counters.time;
      const whole = simulated >= built.engineCase.endTime * (1 - 1e-9);
      const projected = fill + (built.engineCase.endTime / Math.max(simulated, 1e-12)) * running;
      const acoustic = fluid.counters.acousticSteps;
      const advection = fluid.counters.advectionSteps;
      const us = (running * 1e6) / Math.max(1, acoustic) / Math.max(1, moving);
      console.log(
        JSON.stringify({
          patient: `${seed}:${index}`,
          backend,
          dp_mm: Number(e.dp_mm.toFixed(4)),
          estimate: { particles: e.particles, steps: e.steps, seconds: e.seconds },
          moving: Math.round(moving),
          wall: fluid.wall.count,
          acousticSteps: acoustic,
          advectionSteps: advection,
          simulated_ms: Number((simulated * 1000).toFixed(2)),
          whole,
          fill_s: Number(fill.toFixed(1)),
          running_s: Number(running.toFixed(1)),
          total_s: Number((whole ? fill + running : projected).toFixed(1)),
          fill_cpu_s: Number(fillCpu.toFixed(1)),
          running_cpu_s: Number(runningCpu.toFixed(1)),
          total_cpu_s: Number(
            (fillCpu + (built.engineCase.endTime / Math.max(simulated, 1e-12)) * runningCpu).toFixed(1),
          ),
          cpu_over_estimate: Number(
            ((fillCpu + (built.engineCase.endTime / Math.max(simulated, 1e-12)) * runningCpu) / e.seconds).toFixed(2),
          ),
          us_per_moving_particle_acoustic_step: Number(us.toFixed(3)),
          measured_over_estimate: Number(((whole ? fill + running : projected) / e.seconds).toFixed(2)),
          load: Number(loadavg()[0]!.toFixed(1)),
        }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
