// `npm run bench -- simulation-templates`: the simulation templates of packages/scenarios on a synthetic patient at a
// resolution (default coarse; TEMPLATE_RESOLUTION=standard …), as the product runs them (case built from the room,
// the engine's runCase, THREADS engine threads, default 1 as the server's simulation job). Each kind runs for
// TEMPLATE_SECONDS of wall time after its first step (default 60) and is then cancelled: reported are its particles, the estimated steps,
// the steps done, the throughput (µs per particle and step on the engine's thread) and the whole run's time projected
// from the simulated time reached (simulated seconds per wall second so far). Issue 16 "Speed": the coarse fluid
// template within 5 minutes on 2 cores.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildScenario, type Resolution, type SimulationKind } from '../packages/scenarios/src/index';
import { runCase } from '../packages/sph/src/index';
import { templateRoom } from './templateRoom';

const resolution = (process.env.TEMPLATE_RESOLUTION ?? 'coarse') as Resolution;
const budget = Number(process.env.TEMPLATE_SECONDS ?? 60);
const threads = Number(process.env.THREADS ?? 1);
const kinds = (process.env.TEMPLATE_KINDS ?? 'fluid,particle,solid').split(',') as SimulationKind[];

const { patient, device } = templateRoom(20261125, 7);

console.log(`${resolution} templates, ${threads} engine thread(s), ${budget} s of wall time each`);
for (const kind of kinds) {
  const built = buildScenario({
    patient,
    phase: 'end-diastole',
    kind,
    resolution,
    parameters: {},
    devices: [device],
  });
  const dir = await mkdtemp(join(tmpdir(), `template-${kind}-`));
  try {
    for (const [name, bytes] of Object.entries(built.files)) await writeFile(join(dir, name), bytes);
    const controller = new AbortController();
    let steps = 0;
    let started = 0;
    const begin = performance.now();
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
            started = performance.now();
            timer = setTimeout(() => controller.abort(), budget * 1000);
          }
          steps += 1;
        },
      },
    );
    clearTimeout(timer);
    const end = performance.now();
    const build = (started - begin) / 1000;
    const running = (end - started) / 1000;
    const particles = manifest.objects.reduce(
      (n, o) => n + (manifest.timesteps.at(-1)?.particleCounts?.[o.name] ?? o.particleCount),
      0,
    );
    const walls = sim.fluid?.wall.count ?? 0;
    const simulated = sim.counters.time;
    const projected = build + (built.engineCase.endTime / Math.max(simulated, 1e-12)) * running;
    const perParticleStep = (running * 1e6) / Math.max(1, steps) / Math.max(1, particles + walls);
    console.log(
      `${kind.padEnd(8)} particles ${particles.toLocaleString('en')} moving + ${walls.toLocaleString('en')} wall ` +
        `(estimate ${built.estimate.particles.toLocaleString('en')}), steps ${steps.toLocaleString('en')} of about ` +
        `${built.estimate.steps.toLocaleString('en')}, simulated ${(simulated * 1000).toFixed(2)} of ` +
        `${(built.engineCase.endTime * 1000).toFixed(0)} ms; build ${build.toFixed(1)} s, ` +
        `${perParticleStep.toFixed(2)} µs per particle-step; whole run projected ${(projected / 60).toFixed(1)} min ` +
        `(estimate ${(built.estimate.seconds / 60).toFixed(1)} min)`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
