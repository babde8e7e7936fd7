// `npm run bench -- simulation-run`: one simulation template timed end to end through the real server (issue 16
// "Speed": the coarse fluid template on a synthetic patient completes within 5 minutes on 2 cores). PGlite in memory,
// jobs in-process (the embedded default, `npm start`): a 5-patient cohort ordered over the API and a ring device
// uploaded over tus (neither timed), the ring placed at the first patient's annulus, then the run created with
// `POST …/rooms/:roomId/simulations` and the simulation read every 250 ms until it is completed. Reported: the create
// call (the case built in a CPU-pool thread), queued, running (the engine in segments of one saved timestep, each
// segment's frames, wall shear stress, summaries and checkpoint stored), start to completed in all, and the CPU time
// the process used meanwhile (all its threads).
// RUN_KIND=fluid|particle|solid (default fluid), RUN_RESOLUTION=coarse|standard|fine|test (default coarse).
import { writeBinaryStl } from '@insilico/mesh';
import { createDefaultCriteria } from '@insilico/anatomy';
import { annulusPlacement, ringDeviceMesh } from '@insilico/scenarios';
import { signedInWorkspace, startBenchServer, uploadOverTus } from './benchServer';

type Vec3 = [number, number, number];
const kind = process.env.RUN_KIND ?? 'fluid';
const resolution = process.env.RUN_RESOLUTION ?? 'coarse';

const server = await startBenchServer('simulation-run', { jobPollSeconds: 0.5 });
try {
  const owner = await signedInWorkspace(server, 'bench-simulation-run', 'Bench valve');
  const { deviceId, cookie } = owner;
  const headers = { cookie, origin: server.origin, 'content-type': 'application/json' };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.origin}/api/devices/${deviceId}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };
  const until = async <T extends { status: string }>(path: string, done: (t: T) => boolean): Promise<T> => {
    for (;;) {
      const t = await call<T>('GET', path);
      if (done(t)) return t;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  // The seconds-long test resolution (to try this bench) is the operator's switch of the workspace.
  if (resolution === 'test') await server.context.simulations.setTestResolution(deviceId, true);
  // Set-up, not timed: a cohort, a project on it, the ring as a device version of the project, a room on patient 1.
  const cohort = await call<{ id: string }>('POST', '/cohorts', {
    name: 'Run cohort',
    size: 5,
    criteria: createDefaultCriteria(),
  });
  const ready = await until<{ status: string }>(`/cohorts/${cohort.id}`, (c) => c.status !== 'in_progress');
  if (ready.status !== 'ready') throw new Error(`the cohort is ${ready.status}`);
  const project = await server.context.projectCreation.create(owner.userId, deviceId, {
    name: 'Run bench',
    developmentStage: 'concept_and_design_feasibility',
    questionId: null,
    cohortIds: [cohort.id],
    versionIds: [],
    teamUserIds: [],
    imagingDatasetIds: [],
    basedOnProjectId: null,
  });
  const { items } = await call<{ items: { id: string }[] }>('GET', `/cohorts/${cohort.id}/patients?pageSize=10`);
  const patientId = items[0]!.id;
  const patient = await call<{ parameters: { key: string; value: number }[]; meshes: { phases: string[] } }>(
    'GET',
    `/cohorts/${cohort.id}/patients/${patientId}`,
  );
  const radius = patient.parameters.find((p) => p.key === 'aorticAnnulusDiameter_mm')!.value / 2;
  // The ring of bench/simulation-templates.bench.ts: 0.8 and 0.12 of the annulus radius, 4 mm downstream of it.
  const uploadId = await uploadOverTus(
    server,
    owner,
    'ring.stl',
    writeBinaryStl(ringDeviceMesh(0.8 * radius, 0.12 * radius), 'ring device, mm'),
  );
  const version = await call<{ id: string }>('POST', '/device-versions', {
    name: 'Ring v1',
    uploadIds: [uploadId],
    targetProjectId: project.id,
  });
  await until<{ status: string }>(`/device-versions/${version.id}`, (v) => v.status !== 'processing');
  const rooms = `/projects/${project.id}/rooms`;
  const room = await call<{ id: string }>('POST', rooms, { cohortId: cohort.id, patientId, name: 'Run room' });
  const phase = patient.meshes.phases[0]!;
  const { landmarks } = await call<{ landmarks: { name: string; position: Vec3; normal?: Vec3 }[] }>(
    'GET',
    `/cohorts/${cohort.id}/patients/${patientId}/meshes/${phase}/landmarks`,
  );
  const annulus = landmarks.find((l) => l.name === 'aortic_annulus')!;
  await call('PUT', `${rooms}/${room.id}/scene`, {
    view: { phase: null, hiddenOrgans: [] },
    placements: [
      {
        versionId: version.id,
        transform: annulusPlacement({ annulus: annulus.position, axis: annulus.normal! }, 4),
        landmark: null,
      },
    ],
  });

  // Timed: start to completed, in wall time and in the CPU time of this process (the server, its CPU-pool thread).
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const created = await call<{ id: string; estimate: { particles: number; steps: number; seconds: number } }>(
    'POST',
    `${rooms}/${room.id}/simulations`,
    { kind, resolution, name: `${kind} ${resolution}` },
  );
  const createdS = (performance.now() - t0) / 1000;
  let runningAt: number | null = null;
  const one = `/projects/${project.id}/simulations/${created.id}`;
  const done = await until<{ status: string; error: string | null; endTime: number }>(one, (s) => {
    if (runningAt === null && s.status !== 'queued') runningAt = performance.now();
    return s.status === 'completed' || s.status === 'failed' || s.status === 'cancelled';
  });
  const totalS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  if (done.status !== 'completed') throw new Error(`the run ended ${done.status}: ${done.error ?? ''}`);
  const results = await call<{ manifest: { timesteps: { particleCounts?: Record<string, number> }[] } }>(
    'GET',
    `${one}/results`,
  );
  const startedS = ((runningAt ?? performance.now()) - t0) / 1000;
  const last = results.manifest.timesteps.at(-1)?.particleCounts ?? {};
  console.log(
    `${kind} template, ${resolution}: estimate ${created.estimate.particles.toLocaleString('en')} particles, ` +
      `${created.estimate.steps.toLocaleString('en')} steps, ${(created.estimate.seconds / 60).toFixed(1)} min; ` +
      `${results.manifest.timesteps.length} saved timesteps of ${(done.endTime * 1000).toFixed(0)} ms simulated; ` +
      `particles at the end ${JSON.stringify(last)}`,
  );
  console.log(`create (case built in a CPU-pool thread) ${createdS.toFixed(1)} s`);
  console.log(`queued until running                     ${(startedS - createdS).toFixed(1)} s`);
  console.log(`running until completed                  ${(totalS - startedS).toFixed(1)} s`);
  console.log(`start to completed                       ${totalS.toFixed(1)} s (${(totalS / 60).toFixed(2)} min)`);
  // On a loaded machine the run's thread (nice 10 where the process serves requests) waits for a core: the CPU time
  // it used says what a quiet machine would need.
  console.log(`CPU time of the process meanwhile        ${cpuS.toFixed(1)} s (${(cpuS / 60).toFixed(2)} min)`);
} finally {
  await server.close();
}
