import type { Domain } from './cellList';
import { box, channelWalls, particlesFromShape } from './geometry';
import type { ParticleArrays } from './particles';

/**
 * The particles of a 2D channel between no-slip plates y = 0 and y = `height`, periodic in x over `length`: lattice
 * fluid, `layers` (default 4) wall layers on each side with normals into the channel, and the periodic domain. Shared by
 * the verification channels (Womersley, Carreau).
 */
export function periodicChannel(o: { height: number; length: number; dp: number; rho0: number; layers?: number }): {
  fluid: ParticleArrays;
  wall: ParticleArrays;
  domain: Domain;
} {
  const { height, length, dp, rho0 } = o;
  const layers = o.layers ?? 4;
  const fluid = particlesFromShape(box([0, 0, 0], [length, height, 0]), dp, 2, rho0);
  const wall = channelWalls(0, length, 0, height, layers, dp, 2, rho0);
  const t = layers * dp;
  const domain: Domain = { lower: [0, -t, 0], upper: [length, height + t, 0], periodic: [true, false, false] };
  return { fluid, wall, domain };
}

/** Means of the fluid particles' height and x-velocity in `bins` equal bands across [0, height]. */
export function bandMeans(fluid: ParticleArrays, height: number, bins: number): { y: Float64Array; u: Float64Array } {
  const y = new Float64Array(bins);
  const u = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let i = 0; i < fluid.count; i++) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor((fluid.y[i]! / height) * bins)));
    y[b] = y[b]! + fluid.y[i]!;
    u[b] = u[b]! + fluid.vx[i]!;
    count[b] = count[b]! + 1;
  }
  for (let b = 0; b < bins; b++) {
    const n = Math.max(1, count[b]!);
    y[b] = y[b]! / n;
    u[b] = u[b]! / n;
  }
  return { y, u };
}
