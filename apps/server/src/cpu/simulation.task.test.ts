import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildManifest, encodeFrame, fluidOutput, ParticleArrays } from '@insilico/sph';
import { afterAll, describe, expect, it } from 'vitest';
import { findDivergence } from './simulation.task';

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
