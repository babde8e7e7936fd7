import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildManifest, encodeFrame, fluidOutput, ParticleArrays } from '@insilico/sph';
import { afterAll, describe, expect, it } from 'vitest';
import { ringFlowScenario } from '../../test/fixtures/flow-case.fixtures';
import { findDivergence, runSimulationSegment } from './simulation.task';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A result folder of one fluid object whose frames are made by `step(k)` from a small block of particles. */
async function resultOf(frames: number, change: (particles: ParticleArrays, step: number) => void) {
  const dir = await mkdtemp(join(tmpdir(), 'divergence-'));
  dirs.push(dir);
  await mkdir(join(dir, 'blood'));
  const particles = new ParticleArrays(3, 8);
  for (let i = 0; i < 8; i++) particles.add((i % 2) * 1e-3, ((i >> 1) % 2) * 1e-3, (i >> 2) * 1e-3, 1e-9, 1060);
  for (let k = 0; k < frames; k++) {
    change(particles, k);
    await writeFile(join(dir, 'blood', `${k}.bin`), encodeFrame(fluidOutput(particles), 'fluid').bytes);
  }
  const times = Array.from({ length: frames }, (_, k) => k * 1e-3);
  const manifest = buildManifest([{ name: 'blood', kind: 'fluid', particles: { count: 8, dim: 3 } }], times);
  return { dir, manifest };
}

describe('divergence check of a run segment', () => {
  it('finds no divergence in a calm run', async () => {
    const { dir, manifest } = await resultOf(4, (p, k) => p.vx.fill(0.01 * k, 0, p.count));
    expect(await findDivergence(dir, manifest, 0)).toBeNull();
  });

  it('fails at the first frame with a NaN and keeps the one before as the last good frame', async () => {
    const { dir, manifest } = await resultOf(5, (p, k) => {
      if (k >= 3) p.p[2] = Number.NaN;
    });
    expect(await findDivergence(dir, manifest, 0)).toEqual({
      message:
        'The simulation diverged at t = 3.00 ms: blood pressure is not a number. Try a finer resolution or a smaller flow.',
      lastGoodTimestep: 2,
    });
  });

  it('fails when particles fly far out of the region the run started in', async () => {
    const { dir, manifest } = await resultOf(4, (p, k) => {
      if (k === 2) p.x[0] = 0.5;
    });
    const found = await findDivergence(dir, manifest, 0);
    expect(found?.lastGoodTimestep).toBe(1);
    expect(found?.message).toContain('particles of blood left the simulated region');
  });

  it('checks only the frames from the first new one (a resumed segment)', async () => {
    const { dir, manifest } = await resultOf(5, (p, k) => {
      p.p[0] = k === 1 ? Number.NaN : 0;
    });
    expect(await findDivergence(dir, manifest, 2)).toBeNull();
  });
});

describe('a run in segments', () => {
  it('gives the same outputs, byte for byte, whether its thread kept the simulation or restored it from the checkpoint', async () => {
    // The test resolution's flow case (a vessel with wall shear stress, whose pass rewrites the fluid's state).
    const { engineCase, files } = ringFlowScenario();
    const root = await mkdtemp(join(tmpdir(), 'segments-'));
    dirs.push(root);
    const [kept, restored] = [join(root, 'kept'), join(root, 'restored')];
    const context = { progress: () => undefined, transfer: () => undefined };
    const segment = (dir: string, end: number, restart: Uint8Array | null) =>
      runSimulationSegment(
        { dir, engineCase: { ...engineCase, endTime: end }, files, restart, totalEndTime: engineCase.endTime },
        context,
      );
    const first = engineCase.outputInterval;
    await segment(kept, first, null);
    // The same run after its first segment in another folder: the thread kept only the first folder's simulation,
    // so this one is built again and restored from the checkpoint (as after a crash, or between two runs' segments).
    await cp(kept, restored, { recursive: true });
    const restart = await readFile(join(kept, 'out', 'checkpoint.bin'));
    await segment(kept, 2 * first, restart);
    await segment(restored, 2 * first, restart);
    const names = (await readdir(join(kept, 'out'), { recursive: true })).filter((name) => name.includes('.'));
    expect(names).toEqual(expect.arrayContaining(['checkpoint.bin', 'monitors.csv', 'blood/2.bin', 'wall/2.bin']));
    for (const name of names) {
      const [a, b] = await Promise.all([readFile(join(kept, 'out', name)), readFile(join(restored, 'out', name))]);
      expect(a.equals(b), name).toBe(true);
    }
  }, 120_000);
});
