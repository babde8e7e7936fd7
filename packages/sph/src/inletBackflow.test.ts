import { describe, expect, it } from 'vitest';
import { openPoiseuilleChannel } from './openCases';

/**
 * Fluid that flows back across a velocity inlet (the stopped inlet of diastole; docs/decisions/sph-inlet-backflow.md):
 * it leaves the domain into the inlet's buffer, moves there with the prescribed profile, re-enters as fluid when carried
 * across the plane again and is removed past the buffer's upstream end, the mass balance counting each crossing.
 */
describe('velocity inlet: fluid flowing back across the plane', () => {
  const dp = 0.1;
  const buffer = 4 * dp;
  /** A 2D channel (inlet plane x = 0, flow +x) at rest until 0.2 s, then 1 m/s plug inflow from 0.25 s. */
  function channel() {
    return openPoiseuilleChannel({
      radius: 0.5,
      length: 1,
      dp,
      rho0: 1,
      mu: 0.1,
      meanVelocity: 1,
      profile: 'plug',
      flowRate: {
        table: [
          [0, 0],
          [0.2, 0],
          [0.25, 1],
          [10, 1],
        ],
      },
    }).open;
  }

  it('counts the crossing both ways exactly, holds the fluid with the inlet, carries it in again, removes it past the buffer', () => {
    const open = channel();
    const f = open.sim.fluid;
    const slotOf = (id: number): number => Array.from(f.id.subarray(0, f.count)).indexOf(id);
    const totalMass = (): number => {
      let m = 0;
      for (let i = 0; i < f.count; i++) m += f.mass[i]!;
      return m;
    };
    // The first column of interior fluid (x = dp/2) crosses back to just behind the plane, as a column pushed back
    // by a reversed flow would.
    const moved: number[] = [];
    let expected = 0;
    for (let i = f.count - 1; i >= 0; i--) {
      if (!open.isInterior(i) || Math.abs(f.x[i]! - dp / 2) > 1e-9) continue;
      f.x[i] = -0.001;
      moved.push(f.id[i]!);
      expected += f.mass[i]!;
    }
    expect(moved).toHaveLength(10);

    let before = totalMass();
    let worst = 0;
    const checkBalance = (): void => {
      const b = open.history[open.history.length - 1]!;
      const now = totalMass();
      const changed = b.inflow[0]! + b.backflow[0]! + b.refilled - b.removed;
      worst = Math.max(worst, Math.abs(now - before - changed) / now, Math.abs(b.imbalance) / now);
      before = now;
    };

    open.step(Infinity);
    checkBalance();
    const first = open.history[0]!;
    // Nothing was released (no inflow yet): the step's inflow is the backflow, to the last bit.
    expect(first.backflow[0]).toBe(expected);
    expect(first.inflow[0]).toBe(-expected);
    for (const id of moved) {
      const i = slotOf(id);
      expect(open.isReturned(i)).toBe(true);
      expect(open.isInterior(i)).toBe(false);
      expect(f.x[i]).toBeCloseTo(-0.001, 12);
      expect(Math.hypot(f.vx[i]!, f.vy[i]!)).toBe(0);
    }

    // While the inlet is stopped the returned fluid stays where it is, at rest, whatever pushes it.
    open.run(0.1, checkBalance);
    for (const id of moved) {
      const i = slotOf(id);
      expect(open.isReturned(i)).toBe(true);
      expect(f.x[i]).toBeCloseTo(-0.001, 12);
      expect(Math.hypot(f.vx[i]!, f.vy[i]!)).toBe(0);
    }

    // One of them carried upstream past the buffer's end (as a reversed inflow would) is removed there.
    const gone = moved[0]!;
    const goneMass = f.mass[slotOf(gone)]!;
    f.x[slotOf(gone)] = -buffer - dp / 2;
    open.step(Infinity);
    checkBalance();
    expect(slotOf(gone)).toBe(-1);
    expect(open.history[open.history.length - 1]!.removed).toBeGreaterThanOrEqual(goneMass);

    // The inflow resumes at 0.25 s (1 m/s): the other nine are carried across the plane again and flow in.
    open.run(0.8, checkBalance);
    for (const id of moved.slice(1)) {
      const i = slotOf(id);
      expect(i).toBeGreaterThanOrEqual(0);
      expect(open.isInterior(i)).toBe(true);
      expect(f.x[i]).toBeGreaterThan(0.3);
    }
    for (let i = 0; i < f.count; i++) {
      expect(open.isReturned(i)).toBe(false);
      expect(f.x[i]).toBeGreaterThanOrEqual(-buffer);
    }
    // Every returned particle either came back in or was removed: the net backflow is the one removed.
    expect(open.totals.backflow[0]! / goneMass - 1).toBeCloseTo(0, 12);
    expect(worst).toBeLessThan(1e-12);
  }, 60_000);

  it('restores its totals from a checkpoint, and from one written before the inlets took fluid back', () => {
    const a = channel();
    const f = a.sim.fluid;
    for (let i = 0; i < f.count; i++) if (a.isInterior(i) && Math.abs(f.x[i]! - dp / 2) < 1e-9) f.x[i] = -0.001;
    a.step(Infinity);
    expect(a.totals.backflow[0]).toBeGreaterThan(0);
    const arrays = new Map(a.state().map((s) => [s.name, s.data]));
    const b = channel();
    b.sim.fluid.count = f.count;
    b.restore(arrays);
    expect(b.totals).toEqual(a.totals);
    const totals = arrays.get('open.totals')!;
    arrays.set('open.totals', totals.slice(0, totals.length - 1));
    const c = channel();
    c.sim.fluid.count = f.count;
    c.restore(arrays);
    expect(c.totals).toEqual({ ...a.totals, backflow: [0] });
    expect(() => {
      arrays.set('open.totals', totals.slice(0, totals.length - 2));
      channel().restore(arrays);
    }).toThrow(/does not fit/);
  });
});
