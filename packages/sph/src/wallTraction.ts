import { CellLinkedList } from './cellList';
import type { WallShearStress } from './derived';
import type { WeaklyCompressibleFluid } from './fluid';
import { WendlandC2, smoothingLength } from './kernel';
import { NeighbourList, buildNeighbours } from './neighbours';
import { ParticleArrays } from './particles';

/**
 * Wall shear stress from the scheme's own wall friction (issue 15 item 6/7): the tangential viscous force that the
 * fluid exerts on the wall particles, per unit wall area. It is the exact reaction of the no-slip wall term of the
 * viscous force (`passes.ts`): fluid particle i gets m_i (2μ_i/ρ_i) Σ_k 2 V_k ∂W_ik/∂r (v_i − v_k)/(r_ik + 0.01h) from
 * the wall particles k, so wall particle k carries the opposite. The forces of the wall particles are gathered on
 * their nearest surface-layer particle (the band of wall particles less than dp below the surface, within the kernel
 * cut-off), whose share of the surface area is the inverse of the layer's number density per unit area, a kernel sum
 * over the layer projected onto the surface. ΣF/ΣA over a patch is then the momentum the scheme actually exchanges with
 * that patch, on a flat lattice, on rings and on a lattice staircase from a mesh.
 *
 * Why not the velocity fit of `wallShearStress`: near an SPH no-slip wall the fluid slips. In the steady 2D Poiseuille
 * channel at H/20 the velocity extrapolated to the surface is 0.06 dp × the wall shear rate and the first fluid layer
 * runs 5 % fast; a fit forced through u = 0 at the surface reads that as extra shear (+7.7 %), while this traction
 * balances the driving force to 0.2 % (docs/validation.md, "Wall shear stress in a running flow").
 *
 * Returns the traction and its magnitude (Pa) on the surface-layer particles, and their areas (m², m in 2D).
 *
 * Uses the fluid–wall neighbour list of the last advection step and the current velocities; call it between advection
 * steps (single-threaded, or after the passes have joined). Wall normals must point into the fluid.
 */
export function wallViscousTraction(
  sim: WeaklyCompressibleFluid,
  o: {
    /**
     * Signed distance (m) from a point to the wall surface, negative in the fluid: picks the surface layer exactly
     * (depth below the surface < dp). Without it the depth is estimated as in `wallShearStress` (nearest fluid particle
     * along the normal − dp/2).
     */
    surfaceDistance?: (x: number, y: number, z: number) => number;
  } = {},
): WallShearStress & { area: Float64Array } {
  const { fluid, wall, contact } = sim;
  const options = sim.options;
  const dp = options.dp;
  const n = wall.count;
  const eps = 0.01 * sim.h;
  const variable = !!options.viscosity;
  const muField = variable ? sim.particleViscosity.mu : null;
  // Force on each wall particle (reaction of the wall term of the fluid's viscous force) and the depth below the surface
  // of each wall particle seen by the fluid (along its normal; NaN when no fluid particle is in range).
  const force = new Float64Array(3 * n);
  const nearest = new Float64Array(n).fill(Infinity);
  for (let i = 0; i < fluid.count; i++) {
    const mi = muField ? muField[i]! : options.mu;
    const c = (fluid.mass[i]! * 2 * mi) / fluid.rho[i]!;
    for (let k = contact.start[i]!; k < contact.end[i]!; k++) {
      const j = contact.j[k]!;
      const f = (c * 2 * contact.dw[k]! * wall.vol[j]!) / (contact.r[k]! + eps);
      // Force on the fluid particle: f (v_i − v_j) (f < 0); the wall gets its opposite.
      force[3 * j] = force[3 * j]! - f * (fluid.vx[i]! - wall.vx[j]!);
      force[3 * j + 1] = force[3 * j + 1]! - f * (fluid.vy[i]! - wall.vy[j]!);
      force[3 * j + 2] = force[3 * j + 2]! - f * (fluid.vz[i]! - wall.vz[j]!);
      // e_ij points from j to i: the fluid particle's height above wall particle j along j's normal.
      const along =
        contact.r[k]! * (contact.ex[k]! * wall.nx[j]! + contact.ey[k]! * wall.ny[j]! + contact.ez[k]! * wall.nz[j]!);
      if (along > 0 && along < nearest[j]!) nearest[j] = along;
    }
  }
  const surface = new Uint8Array(n);
  const depth = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    if (wall.nx[j] === 0 && wall.ny[j] === 0 && wall.nz[j] === 0) continue;
    const d = o.surfaceDistance
      ? o.surfaceDistance(wall.x[j]!, wall.y[j]!, wall.z[j]!)
      : Number.isFinite(nearest[j]!)
        ? nearest[j]! - dp / 2
        : NaN;
    if (d < dp) {
      surface[j] = 1;
      depth[j] = d;
    }
  }
  // Gather every loaded wall particle's force on its nearest surface-layer particle.
  const kernel = new WendlandC2(smoothingLength(dp), wall.dim);
  const rc = kernel.cutoff;
  const cells = new CellLinkedList(options.domain, rc, Math.max(1, wall.capacity), wall.dim);
  cells.rebuild(wall);
  const perRow = wall.dim === 2 ? 32 : 96;
  const list = new NeighbourList(Math.max(1, n), Math.max(1, n) * perRow);
  buildNeighbours(wall, wall, cells, kernel, true, list);
  const gathered = new Float64Array(3 * n);
  for (let j = 0; j < n; j++) {
    const fx = force[3 * j]!;
    const fy = force[3 * j + 1]!;
    const fz = force[3 * j + 2]!;
    if (fx === 0 && fy === 0 && fz === 0) continue;
    let target = surface[j] ? j : -1;
    if (target < 0) {
      let best = Infinity;
      for (let k = list.start[j]!; k < list.end[j]!; k++) {
        const q = list.j[k]!;
        if (surface[q] && list.r[k]! < best) {
          best = list.r[k]!;
          target = q;
        }
      }
    }
    if (target < 0) continue;
    gathered[3 * target] = gathered[3 * target]! + fx;
    gathered[3 * target + 1] = gathered[3 * target + 1]! + fy;
    gathered[3 * target + 2] = gathered[3 * target + 2]! + fz;
  }
  // Area of each surface-layer particle: the inverse of the layer's number density per unit area, a kernel sum over the
  // layer's particles projected onto the surface (x + d n). A fixed-depth band of a lattice wall holds more or fewer
  // particles than 1/dp^(d−1) per unit area depending on how the lattice meets the surface (+8 % on the test tube
  // at R/6, on top of the curvature's dp/2R), and the band of rings lies at R + dp/2, not R; the density sees both.
  const index = new Int32Array(n).fill(-1);
  let m = 0;
  for (let j = 0; j < n; j++) if (surface[j]) index[j] = m++;
  const projected = new ParticleArrays(wall.dim, Math.max(1, m));
  for (let j = 0; j < n; j++) {
    if (!surface[j]) continue;
    const d = depth[j]!;
    projected.add(wall.x[j]! + d * wall.nx[j]!, wall.y[j]! + d * wall.ny[j]!, wall.z[j]! + d * wall.nz[j]!, 0, 0);
  }
  const pcells = new CellLinkedList(options.domain, rc, Math.max(1, m), wall.dim);
  pcells.rebuild(projected);
  const plist = new NeighbourList(Math.max(1, m), Math.max(1, m) * perRow);
  buildNeighbours(projected, projected, pcells, kernel, true, plist);
  // w(r) = (1 − r²/rc²)², normalised over the (d − 1)-dimensional surface: ∫w = 16 rc/15 on a line, π rc²/3 on a plane.
  const norm = wall.dim === 2 ? 15 / (16 * rc) : 3 / (Math.PI * rc * rc);
  const traction = new Float64Array(3 * n);
  const magnitude = new Float64Array(n);
  const areas = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const q = index[j]!;
    if (q < 0) continue;
    let density = norm;
    for (let k = plist.start[q]!; k < plist.end[q]!; k++) {
      const x = plist.r[k]! / rc;
      density += norm * (1 - x * x) ** 2;
    }
    const area = 1 / density;
    areas[j] = area;
    const [nx, ny, nz] = [wall.nx[j]!, wall.ny[j]!, wall.nz[j]!];
    const fx = gathered[3 * j]!;
    const fy = gathered[3 * j + 1]!;
    const fz = gathered[3 * j + 2]!;
    const fn = fx * nx + fy * ny + fz * nz;
    const t = [(fx - fn * nx) / area, (fy - fn * ny) / area, (fz - fn * nz) / area];
    traction[3 * j] = t[0]!;
    traction[3 * j + 1] = t[1]!;
    traction[3 * j + 2] = t[2]!;
    magnitude[j] = Math.hypot(t[0]!, t[1]!, t[2]!);
  }
  return { traction, magnitude, surface, area: areas };
}
