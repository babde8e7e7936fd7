import type { OpenBoundaryFluid } from '../src/openBoundary';
import { pipeFlowStats } from '../src/openCases';

// Shared by the open-boundary tests (ring-built tubes and channels, vessels from meshes).

/**
 * Time averages over the advection steps after `from` (s): pressure gradient, centre-line speed, and the mass flow rates
 * across the inlet and outlet planes (particles released and particles entering the outlet buffer, per second).
 */
export function steadyAverages(
  pipe: { open: OpenBoundaryFluid; velocity(r: number): number },
  o: { radius: number; length: number; dp: number; axis: readonly [number, number, number] },
  end: number,
  from: number,
): {
  gradient: number;
  centre: number;
  inflow: number;
  outflow: number;
  smoothIn: number;
  smoothOut: number;
  maxImbalance: number;
} {
  const open: OpenBoundaryFluid = pipe.open;
  let g = 0;
  let uc = 0;
  let ue = 0;
  let weight = 0;
  open.run(end, (c) => {
    if (c.time <= from) return;
    const dt = open.history[open.history.length - 1]!.dt;
    const s = pipeFlowStats(open, o.axis, o.radius, o.length - o.radius, o.dp, pipe.velocity);
    g += s.pressureGradient * dt;
    uc += s.centreVelocity * dt;
    ue += s.centreExact * dt;
    weight += dt;
  });
  const steps = open.history.filter((b) => b.time > from);
  const T = steps.reduce((a, b) => a + b.dt, 0);
  // The smooth crossed mass (`crossedMass`) at the window's ends: the state before its first step, and the last.
  const start = open.history[open.history.length - steps.length - 1]!;
  const last = open.history[open.history.length - 1]!;
  return {
    smoothIn: (last.inflowCumulative[0]! - start.inflowCumulative[0]!) / T,
    smoothOut: (last.outflowCumulative[0]! - start.outflowCumulative[0]!) / T,
    gradient: g / weight,
    centre: uc / ue,
    inflow: steps.reduce((a, b) => a + b.inflow[0]!, 0) / T,
    outflow: steps.reduce((a, b) => a + b.outflow[0]!, 0) / T,
    maxImbalance: Math.max(...open.history.map((b) => Math.abs(b.imbalance))),
  };
}
