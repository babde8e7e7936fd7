import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CaseError, parseCase } from './caseFile';
import { runCase } from './caseRunner';
import { parseArgs, progressLine } from './cli';
import type { Manifest } from './output';
import { readColumn } from './output';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sph-cli-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A small 2D dam break in a closed box with tracked particles. */
const damCase = {
  dimension: 2,
  dp: 0.1,
  endTime: 0.4,
  outputInterval: 0.2,
  gravity: [0, -1, 0],
  fluid: {
    name: 'water',
    density: 1,
    viscosity: 0.01,
    referenceVelocity: 2,
    region: { shapes: [{ type: 'box', lower: [0, 0, 0], upper: [1, 1, 0] }] },
  },
  walls: { container: { lower: [0, 0, 0], upper: [3, 2, 0], thickness: 0.3 } },
  particles: [{ name: 'beads', mode: 'inertial', diameter: 0.01, density: 2, positions: [[0.5, 0.5, 0]] }],
};

describe('sph command line', () => {
  it('runs a case file into a result folder: manifest with units, frames per object and timestep, checkpoint', async () => {
    const out = tmp();
    const c = parseCase(JSON.stringify(damCase));
    const fractions: number[] = [];
    const { status, manifest } = await runCase(c, {
      caseDir: out,
      outDir: out,
      exports: ['vtp', 'csv'],
      onProgress: (f) => fractions.push(f),
    });
    expect(status).toBe('completed');
    expect(manifest.timesteps.map((t) => t.time)).toEqual([0, 0.2, 0.4].map((t) => expect.closeTo(t, 12)));
    expect(manifest.objects.map((o) => [o.name, o.kind, o.particleCount])).toEqual([
      ['water', 'fluid', 100],
      ['beads', 'particles', 1],
    ]);
    const onDisk = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(manifest)));
    const water = manifest.objects[0]!;
    const frame = new Uint8Array(readFileSync(join(out, 'water', '2.bin')));
    const velocity = water.columns.find((col) => col.name === 'velocity')!;
    expect(velocity.unit).toBe('m/s');
    // The column falls under gravity: mean vertical velocity negative at t = 0.4.
    const vy = Array.from(readColumn(frame, velocity)).slice(100);
    expect(vy.reduce((a, b) => a + b, 0) / 100).toBeLessThan(-0.05);
    expect(readFileSync(join(out, 'water', '2.vtp'), 'utf8')).toContain('NumberOfPoints="100"');
    expect(readFileSync(join(out, 'beads', '1.csv'), 'utf8').split('\r\n')[0]).toContain('Particle Size (mm)');
    expect(existsSync(join(out, 'checkpoint.bin'))).toBe(true);
    expect(fractions.at(-1)).toBe(1);
    for (let k = 1; k < fractions.length; k++) expect(fractions[k]!).toBeGreaterThanOrEqual(fractions[k - 1]!);
  }, 60_000);

  it('restarts from a checkpoint and ends where the uninterrupted run ends', async () => {
    const full = tmp();
    const c = parseCase(JSON.stringify(damCase));
    await runCase(c, { caseDir: full, outDir: full });
    const part = tmp();
    await runCase(parseCase(JSON.stringify({ ...damCase, endTime: 0.2 })), { caseDir: part, outDir: part });
    const restart = new Uint8Array(readFileSync(join(part, 'checkpoint.bin')));
    const { manifest } = await runCase(c, { caseDir: part, outDir: part, restart });
    expect(manifest.timesteps).toHaveLength(3);
    expect(readFileSync(join(part, 'water', '2.bin')).equals(readFileSync(join(full, 'water', '2.bin')))).toBe(true);
    expect(readFileSync(join(part, 'beads', '2.bin')).equals(readFileSync(join(full, 'beads', '2.bin')))).toBe(true);
  }, 60_000);

  it('runs a solid case (a clamped plate under gravity), on 1 and on 2 threads byte for byte', async () => {
    const out = tmp();
    const solidCase = {
      dimension: 2,
      dp: 0.004,
      endTime: 0.02,
      outputInterval: 0.01,
      gravity: [0, -9.81, 0],
      solids: [
        {
          name: 'plate',
          material: { model: 'neo_hookean', density: 1000, youngsModulus: 2e6, poissonRatio: 0.3 },
          region: { shapes: [{ type: 'box', lower: [-0.016, -0.01, 0], upper: [0.1, 0.01, 0] }] },
          fixed: { shapes: [{ type: 'box', lower: [-0.02, -0.02, 0], upper: [0, 0.02, 0] }] },
        },
      ],
    };
    const c = parseCase(JSON.stringify(solidCase));
    const { manifest, sim } = await runCase(c, { caseDir: out, outDir: out });
    expect(manifest.objects[0]!.columns.map((col) => `${col.label} (${col.unit})`)).toEqual([
      'Particle Id ()',
      'Position (mm)',
      'Displacement (mm)',
      'Velocity (m/s)',
      'von Mises stress (MPa)',
      'von Mises strain (mm/mm)',
    ]);
    const solid = sim.solids[0]!.solid;
    expect(solid.counters.time).toBeCloseTo(0.02, 12);
    // The free end sags; the clamp holds.
    let tip = 0;
    for (let i = 0; i < solid.particles.count; i++)
      if (solid.x0[i]! > 0.095) tip = Math.min(tip, solid.particles.y[i]! - solid.y0[i]!);
    expect(tip).toBeLessThan(0);
    const threaded = tmp();
    await runCase(parseCase(JSON.stringify({ ...solidCase, threads: 2 })), { caseDir: threaded, outDir: threaded });
    expect(readFileSync(join(threaded, 'plate', '2.bin')).equals(readFileSync(join(out, 'plate', '2.bin')))).toBe(true);
  }, 60_000);

  it('runs a fluid–solid case (water against an elastic flap) and restarts it byte for byte, also on 2 threads', async () => {
    // The water column of the dam case runs into a flap 0.3 wide and 1.2 high standing on the floor at x = 1.5;
    // the flap's lowest 0.2 is clamped. Light and soft, so it is pushed within the run.
    const fsiCase = {
      ...damCase,
      endTime: 0.8,
      outputInterval: 0.4,
      solids: [
        {
          name: 'flap',
          material: { model: 'linear_elastic', density: 1, youngsModulus: 200, poissonRatio: 0.3 },
          region: { shapes: [{ type: 'box', lower: [1.5, 0, 0], upper: [1.8, 1.2, 0] }] },
          fixed: { shapes: [{ type: 'box', lower: [1.4, -0.1, 0], upper: [1.9, 0.2, 0] }] },
          damping: 1,
        },
      ],
    };
    const full = tmp();
    const c = parseCase(JSON.stringify(fsiCase));
    const { manifest, sim } = await runCase(c, { caseDir: full, outDir: full });
    expect(manifest.objects.map((o) => [o.name, o.kind])).toEqual([
      ['water', 'fluid'],
      ['beads', 'particles'],
      ['flap', 'solid'],
    ]);
    expect(sim.fsi?.counters.solidSteps).toBeGreaterThan(0);
    // The water has reached the flap and pushes it downstream; no water got into it.
    const flap = sim.solids[0]!.solid;
    let top = 0;
    for (let i = 0; i < flap.particles.count; i++)
      if (flap.y0[i]! > 1.1) top = Math.max(top, flap.particles.x[i]! - flap.x0[i]!);
    expect(top).toBeGreaterThan(0);
    const water = sim.fluid!.fluid;
    for (let i = 0; i < water.count; i++) {
      const inside = water.x[i]! > 1.55 && water.x[i]! < 1.75 && water.y[i]! < 1.1;
      expect(inside).toBe(false);
    }
    // The first half and the restart on 2 threads (fluid and flap) end where the 1-thread run ends.
    const part = tmp();
    const threaded = { ...fsiCase, threads: 2 };
    await runCase(parseCase(JSON.stringify({ ...threaded, endTime: 0.4 })), { caseDir: part, outDir: part });
    const restart = new Uint8Array(readFileSync(join(part, 'checkpoint.bin')));
    await runCase(parseCase(JSON.stringify(threaded)), { caseDir: part, outDir: part, restart });
    for (const name of ['water', 'flap']) {
      expect(readFileSync(join(part, name, '2.bin')).equals(readFileSync(join(full, name, '2.bin')))).toBe(true);
    }
  }, 120_000);

  it('explains an invalid case file, path by path', () => {
    expect(() => parseCase('{ nope')).toThrow(/not valid JSON/);
    const bad = { ...damCase, dp: -1, solids: [{ name: 'x y' }] };
    let message = '';
    try {
      parseCase(JSON.stringify(bad));
    } catch (e) {
      expect(e).toBeInstanceOf(CaseError);
      message = (e as Error).message;
    }
    expect(message).toContain('dp: Too small');
    expect(message).toContain('solids.0.name: use letters, digits, _ and - only');
    expect(() => parseCase(JSON.stringify({ ...damCase, outputInterval: 10 }))).toThrow(
      'outputInterval: must not exceed endTime',
    );
    expect(() => parseCase(JSON.stringify({ ...damCase, fluid: undefined }))).toThrow(/tracked particles need a fluid/);
  });

  it('parses arguments and draws the progress bar', () => {
    const a = parseArgs(['cases/dam.json', '--export', 'vtp,csv']);
    expect(a.outDir).toMatch(/cases[/\\]dam-results$/);
    expect(a.exports).toEqual(['vtp', 'csv']);
    expect(parseArgs(['c.json', '--out', 'o', '--restart', 'o/checkpoint.bin'])).toMatchObject({
      outDir: 'o',
      restart: 'o/checkpoint.bin',
    });
    expect(() => parseArgs([])).toThrow(/usage/);
    expect(() => parseArgs(['c.json', '--export', 'pdf'])).toThrow(/unknown export format 'pdf'/);
    expect(progressLine(0.5, 2, 10)).toBe('[#####.....]  50.0 %  t = 1.000 / 2 s');
  });
});
