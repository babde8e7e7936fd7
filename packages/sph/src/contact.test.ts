import { describe, expect, it } from 'vitest';
import { ContactSimulation, elasticContactBody, rigidContactBody } from './contact';
import { hertzCylinder, hertzPointContact, hertzSphere, measureHertz, measureHertzSphere } from './hertz';
import { ParticleArrays } from './particles';
import { ElasticSolid } from './solid';

/**
 * A 0.2 × 0.1 block (dp 0.02) resting on a rigid flat (three layers below y = 0), sliding at `v0` along x; gravity
 * 10 m/s² tilted by `slope` (tan θ) as on an incline.
 */
function slidingBlock(friction: number, v0: number, slope = 0): { sim: ContactSimulation; block: ElasticSolid } {
  const dp = 0.02;
  const block = new ParticleArrays(2, 50);
  for (let j = 0; j < 5; j++) {
    for (let i = 0; i < 10; i++) {
      const k = block.add((i + 0.5) * dp, (j + 0.5) * dp, 0, dp * dp, 1000);
      block.vx[k] = v0;
    }
  }
  const wall = new ParticleArrays(2, 3 * 200);
  for (let layer = 0; layer < 3; layer++) {
    for (let i = -20; i < 180; i++) wall.ny[wall.add((i + 0.5) * dp, -(layer + 0.5) * dp, 0, dp * dp, 1000)] = 1;
  }
  const solid = new ElasticSolid(block, {
    dim: 2,
    dp,
    material: { model: 'neo_hookean', rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 },
    gravity: [(10 * slope) / Math.hypot(1, slope), -10 / Math.hypot(1, slope), 0],
  });
  const sim = new ContactSimulation(
    [elasticContactBody(solid, dp), rigidContactBody(wall, dp)],
    [{ a: 0, b: 1, friction }],
  );
  return { sim, block: solid };
}

function meanVelocityX(solid: ElasticSolid): number {
  const p = solid.particles;
  let sum = 0;
  for (let i = 0; i < p.count; i++) sum += p.vx[i]!;
  return sum / p.count;
}

describe('contact (SPHinXsys repulsion, Coulomb friction)', () => {
  it("Hertz's line contact at R/30: force balance, half-width and peak pressure on the flat within 20 %", () => {
    // The lower half of an elastic cylinder under its weight on a rigid flat, contact stiffness 16 K (a narrower
    // contact layer). At R/30 (b ≈ 5 dp) the contact layer widens b by about 15 % and lowers the peak by about 15 %;
    // docs/validation.md has the R/20 … R/80 study.
    const c = hertzCylinder({ resolution: 30, stiffness: 16 });
    c.simulation.run(0.5 * c.endTime);
    const m = measureHertz(c.contact);
    expect(Math.abs(m.force / c.load - 1)).toBeLessThan(0.002);
    expect(Math.abs(m.halfWidth / c.analytic.halfWidth - 1)).toBeLessThan(0.2);
    expect(Math.abs(m.peakPressure / c.analytic.peakPressure - 1)).toBeLessThan(0.2);
  }, 60_000);

  it("Hertz's point contact of a sphere (3D) at R/14: force balance, contact radius within 5 % of Hertz's", () => {
    // Hertz's closed forms agree with F = (4/3) E* √R δ^(3/2) (Johnson, Contact Mechanics, eq. 4.22).
    const h = hertzPointContact(2, 0.5, 1e6, 0.3);
    expect((4 / 3) * (1e6 / 0.91) * Math.sqrt(0.5) * h.indentation ** 1.5).toBeCloseTo(2, 9);
    // The lower half of a neo-Hookean sphere under its weight on a rigid flat (contact radius a ≈ 0.25 R, a/dp 3.5),
    // κ = 16. docs/validation.md has R/8 … R/20, the convergence, and why the contact is read on the sphere.
    const c = hertzSphere({ resolution: 14, stiffness: 16 });
    c.simulation.run(c.endTime);
    const [, , fz] = c.contact.totalForce();
    expect(Math.abs(fz / c.load - 1)).toBeLessThan(0.01);
    const m = measureHertzSphere(c.contact, 1);
    expect(Math.abs(m.force / c.load - 1)).toBeLessThan(0.01);
    // The 5 % on the contact radius for the measured force (Hertz: a³ = 3FR/4E*).
    const analytic = hertzPointContact(m.force, 1, 1e6, 0.3);
    expect(Math.abs(m.contactRadius / analytic.contactRadius - 1)).toBeLessThan(0.05);
    // Read on the flat the contact is wider: a pair's force lands on the flat's particles within 2h of the sphere's
    // particle, a blur that only adds to the second moment.
    expect(m.contactRadiusOnFlat).toBeGreaterThan(m.contactRadius);
  }, 600_000);

  it('Coulomb friction: a block sliding on a flat decelerates at μg, one on a slope accelerates at g(sin θ − μ cos θ)', () => {
    // Least-squares slope of the mean velocity over t = 0.1 … 0.4 s (the block rocks a little on its elastic contact).
    const slope = (friction: number, v0: number, tilt: number): number => {
      const { sim, block } = slidingBlock(friction, v0, tilt);
      const ts: number[] = [];
      const vs: number[] = [];
      for (let k = 5; k <= 20; k++) {
        sim.run(0.02 * k);
        ts.push(0.02 * k);
        vs.push(meanVelocityX(block));
      }
      const tm = ts.reduce((x, y) => x + y) / ts.length;
      const vm = vs.reduce((x, y) => x + y) / vs.length;
      let num = 0;
      let den = 0;
      for (let k = 0; k < ts.length; k++) {
        num += (ts[k]! - tm) * (vs[k]! - vm);
        den += (ts[k]! - tm) ** 2;
      }
      return num / den;
    };
    expect(slope(0.2, 2, 0) / -2 - 1).toBeCloseTo(0, 1);
    const cos = 1 / Math.hypot(1, 0.3);
    expect(slope(0.2, 0, 0.3) / (10 * cos * (0.3 - 0.2)) - 1).toBeCloseTo(0, 1);
    // Without friction nothing slows the block on the flat.
    expect(slope(0, 1, 0)).toBeCloseTo(0, 2);
  }, 30_000);

  it('a block on a slope with tan θ < μ sticks (creeps below 1 % of the frictionless speed), on 1, 2 and 3 threads alike', async () => {
    const runs: Float64Array[] = [];
    for (const threads of [1, 2, 3]) {
      // tan θ = 0.3 < μ = 0.5; without friction it would reach g sin θ t ≈ 0.57 m/s by t = 0.2 s.
      const { sim, block } = slidingBlock(0.5, 0, 0.3);
      // The pair search on the pool however small the surface; on 3 threads it starts with one slot per row, so its
      // regions overflow and grow.
      sim.pairs[0]!.poolSearchFrom = 0;
      if (threads === 3) sim.pairs[0]!.searchSlotsPerRow = 1;
      await sim.startThreads(threads);
      try {
        sim.run(0.2);
      } finally {
        await sim.stopThreads();
      }
      const p = block.particles;
      runs.push(
        Float64Array.from([...p.x.subarray(0, p.count), ...p.y.subarray(0, p.count), ...p.vx.subarray(0, p.count)]),
      );
      expect(Math.abs(meanVelocityX(block))).toBeLessThan(0.01 * 0.57);
      // Nothing went through the flat.
      for (let i = 0; i < p.count; i++) expect(p.y[i]).toBeGreaterThan(0);
    }
    // The pair search runs on the pool, the sums on the calling thread: the same bytes on 1, 2 and 3 threads.
    expect(Buffer.from(runs[1]!.buffer).equals(Buffer.from(runs[0]!.buffer))).toBe(true);
    expect(Buffer.from(runs[2]!.buffer).equals(Buffer.from(runs[0]!.buffer))).toBe(true);
  }, 30_000);

  it('bodies of two spacings touch at their surfaces: a block (dp 0.02) rests on a flat of twice its spacing', () => {
    // A 0.2 × 0.1 block under its weight (1,000 Pa) on a rigid flat of spacing 0.04 (top particles at −0.02: its
    // surface at y = 0), mass-damped to rest. The block's surface (its lowest particles' centres less dp/2) must rest
    // on y = 0, give or take the contact layer (p/K ≈ 10⁻³ of the mean spacing's kernel; 0.1 dp allowed). With the
    // larger spacing's offset W(0.04) it stood (0.04 − 0.02)/2 = 0.01 = dp/2 above it.
    const dp = 0.02;
    const coarse = 2 * dp;
    const block = new ParticleArrays(2, 50);
    for (let j = 0; j < 5; j++)
      for (let i = 0; i < 10; i++) block.add((i + 0.5) * dp, (j + 0.5) * dp, 0, dp * dp, 1000);
    const flat = new ParticleArrays(2, 3 * 20);
    for (let layer = 0; layer < 3; layer++) {
      for (let i = -5; i < 15; i++)
        flat.ny[flat.add((i + 0.5) * coarse, -(layer + 0.5) * coarse, 0, coarse ** 2, 1)] = 1;
    }
    const solid = new ElasticSolid(block, {
      dim: 2,
      dp,
      material: { model: 'neo_hookean', rho0: 1000, youngsModulus: 1e6, poissonRatio: 0.3 },
      gravity: [0, -10, 0],
      // About the block's lowest vertical mode (a quarter wave over its height at the P-wave speed ≈ 36 m/s).
      damping: 600,
    });
    const sim = new ContactSimulation(
      [elasticContactBody(solid, dp), rigidContactBody(flat, coarse)],
      [{ a: 0, b: 1 }],
    );
    sim.run(0.3);
    const p = solid.particles;
    let bottom = 0;
    let n = 0;
    for (let i = 0; i < p.count; i++) {
      if (solid.y0[i]! < dp) {
        bottom += p.y[i]!;
        n++;
      }
    }
    const surface = bottom / n - 0.5 * dp;
    expect(Math.abs(surface)).toBeLessThan(0.1 * dp);
    // At rest, the flat carries the block's weight.
    const [, fy] = sim.pairs[0]!.totalForce();
    expect(Math.abs(fy / (1000 * 10 * 0.2 * 0.1) - 1)).toBeLessThan(0.02);
  }, 30_000);

  it('refuses a rigid first body and a negative friction coefficient', () => {
    const wall = new ParticleArrays(2, 1);
    wall.ny[wall.add(0, 0, 0, 1e-4, 1)] = 1;
    const body = rigidContactBody(wall, 0.01);
    expect(() => new ContactSimulation([body, body], [{ a: 0, b: 1 }])).toThrow(/elastic solid/);
    const { block } = slidingBlock(0, 0);
    expect(
      () => new ContactSimulation([elasticContactBody(block, 0.02), body], [{ a: 0, b: 1, friction: -1 }]),
    ).toThrow(/friction/);
  });
});
