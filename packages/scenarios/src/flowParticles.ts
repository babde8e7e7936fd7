import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import { triangleNormal } from '@insilico/sph';

/**
 * Where the engine cuts a vessel at one spacing (mm, heights along the region's axis above the annulus): blood and
 * wall beyond a buffer's far end are not built within the boundary's radius (`vesselFromMesh` of @insilico/sph).
 */
export interface VesselCuts {
  /** The inlet buffer's far end (below the inlet plane) and the outlet buffer's far end (above the outlet plane). */
  readonly inletEnd_mm: number;
  readonly outletEnd_mm: number;
  /** The inlet's and outlet's radii (what is cut beyond the ends lies nearer the axis than these). */
  readonly inletRadius_mm: number;
  readonly outletRadius_mm: number;
  /** The wall shell's thickness (wall layers × dp). */
  readonly wallThickness_mm: number;
}

/** Particles the engine builds for a vessel at a spacing: blood in the lumen, wall in the shell around it. */
export interface VesselParticles {
  readonly fluid: number;
  readonly wall: number;
}

/**
 * Counts the particles the engine's vessel builder makes of a closed lumen mesh, without building them, for the
 * run-time estimate (docs/decisions/simulation-run-estimate.md, "The particle count"). Geometry is read once; each
 * count is a pass over the triangles and edges:
 *
 * - **Blood**: the lumen's volume between the two buffer ends ÷ dp³, the volume of the mesh clipped by the two
 *   planes across the axis exactly (divergence theorem with F = (h − H)·axis: the cap in the plane adds nothing).
 * - **Wall**: the shell of thickness t outside the surface between the ends, by Steiner's formula A·t + M·t² (A the
 *   area, M the integrated mean curvature, ½ Σ |e| β over the edges' dihedral angles β: a tube's outer shell is
 *   larger than A·t by t/2R), plus beyond the ends the part of the shell outside the boundary's radius, which the
 *   engine keeps (radially: (r₂² − r₁²)/2R per unit area of a tube of radius R). ÷ dp³.
 *
 * Not counted: a device's hole (its volume is blood in this count and wall in the engine's: at most about 1 % of the
 * blood for the templates' devices), the rim beyond the end caps, and the lattice's rounding at the surface.
 */
export function vesselParticleCounter(
  mesh: TriangleMesh,
  origin: Vec3,
  axis: Vec3,
): (dp_mm: number, cuts: VesselCuts) => VesselParticles {
  const p = mesh.positions;
  const idx = mesh.indices;
  const nt = idx.length / 3;
  const h = new Float64Array(p.length / 3);
  for (let v = 0; v < h.length; v++) {
    h[v] =
      (p[3 * v]! - origin[0]) * axis[0] + (p[3 * v + 1]! - origin[1]) * axis[1] + (p[3 * v + 2]! - origin[2]) * axis[2];
  }
  // Per triangle: area, unit normal (outward after orientation), centroid height and distance from the axis.
  const area = new Float64Array(nt);
  const normal = new Float64Array(3 * nt);
  const centroid = new Float64Array(3 * nt);
  const ch = new Float64Array(nt);
  const radius = new Float64Array(nt);
  let signedVolume = 0;
  for (let t = 0; t < nt; t++) {
    const a = 3 * idx[3 * t]!;
    const b = 3 * idx[3 * t + 1]!;
    const c = 3 * idx[3 * t + 2]!;
    const twice = triangleNormal(p, a, b, c, normal, 3 * t);
    area[t] = twice / 2;
    for (let k = 0; k < 3; k++) centroid[3 * t + k] = (p[a + k]! + p[b + k]! + p[c + k]!) / 3;
    ch[t] = (h[idx[3 * t]!]! + h[idx[3 * t + 1]!]! + h[idx[3 * t + 2]!]!) / 3;
    const rx = centroid[3 * t]! - origin[0] - ch[t]! * axis[0];
    const ry = centroid[3 * t + 1]! - origin[1] - ch[t]! * axis[1];
    const rz = centroid[3 * t + 2]! - origin[2] - ch[t]! * axis[2];
    radius[t] = Math.hypot(rx, ry, rz);
    signedVolume +=
      ((p[a]! * normal[3 * t]! + p[a + 1]! * normal[3 * t + 1]! + p[a + 2]! * normal[3 * t + 2]!) * twice) / 6;
  }
  // Outward normals whatever the mesh's winding.
  const outward = signedVolume < 0 ? -1 : 1;
  for (let k = 0; k < normal.length; k++) normal[k]! *= outward;
  const axial = new Float64Array(nt);
  for (let t = 0; t < nt; t++) {
    axial[t] = normal[3 * t]! * axis[0] + normal[3 * t + 1]! * axis[1] + normal[3 * t + 2]! * axis[2];
  }
  // Per interior edge: length × signed dihedral angle (positive where the surface is convex seen from outside), and
  // the height of its midpoint.
  const edgeWeight: number[] = [];
  const edgeHeight: number[] = [];
  const firstFace = new Map<number, number>();
  const nv = h.length;
  for (let t = 0; t < nt; t++) {
    for (let k = 0; k < 3; k++) {
      const i = idx[3 * t + k]!;
      const j = idx[3 * t + ((k + 1) % 3)]!;
      const key = i < j ? i * nv + j : j * nv + i;
      const other = firstFace.get(key);
      if (other === undefined) {
        firstFace.set(key, t);
        continue;
      }
      firstFace.delete(key);
      let cos = 0;
      let side = 0;
      for (let d = 0; d < 3; d++) {
        cos += normal[3 * t + d]! * normal[3 * other + d]!;
        side += (centroid[3 * t + d]! - centroid[3 * other + d]!) * normal[3 * other + d]!;
      }
      const beta = Math.acos(Math.min(1, Math.max(-1, cos)));
      const length = Math.hypot(p[3 * i]! - p[3 * j]!, p[3 * i + 1]! - p[3 * j + 1]!, p[3 * i + 2]! - p[3 * j + 2]!);
      edgeWeight.push(length * (side < 0 ? beta : -beta));
      edgeHeight.push((h[i]! + h[j]!) / 2);
    }
  }

  /** The lumen's volume below height `H` (mm³). */
  const volumeBelow = (H: number): number => {
    let sum = 0;
    const ph = [0, 0, 0];
    for (let t = 0; t < nt; t++) {
      if (area[t] === 0) continue;
      const v0 = idx[3 * t]!;
      const v1 = idx[3 * t + 1]!;
      const v2 = idx[3 * t + 2]!;
      ph[0] = h[v0]! - H;
      ph[1] = h[v1]! - H;
      ph[2] = h[v2]! - H;
      const below = (ph[0] <= 0 ? 1 : 0) + (ph[1] <= 0 ? 1 : 0) + (ph[2] <= 0 ? 1 : 0);
      if (below === 0) continue;
      if (below === 3) {
        sum += area[t]! * axial[t]! * ((ph[0] + ph[1] + ph[2]) / 3);
        continue;
      }
      // The clipped part: ∫ (h − H) dA over it, h linear on the triangle; in barycentric terms the part below H
      // of a triangle is a triangle (one vertex below) or the triangle less one (two below).
      const lone = below === 1 ? ph.findIndex((x) => x <= 0) : ph.findIndex((x) => x > 0);
      const a = ph[lone]!;
      const b = ph[(lone + 1) % 3]!;
      const c = ph[(lone + 2) % 3]!;
      // The corner triangle at the lone vertex: fractions sb, sc along its edges to the plane.
      const sb = a / (a - b);
      const sc = a / (a - c);
      const cornerArea = sb * sc; // of the triangle's area
      const cornerIntegral = cornerArea * (a / 3); // its mean of (h − H): (a + 0 + 0) / 3
      const whole = (a + b + c) / 3;
      const part = below === 1 ? cornerIntegral : whole - cornerIntegral;
      sum += area[t]! * axial[t]! * part;
    }
    return sum;
  };

  return (dp, cuts) => {
    const lo = cuts.inletEnd_mm;
    const hi = cuts.outletEnd_mm;
    const t = cuts.wallThickness_mm;
    const lumen = volumeBelow(hi) - volumeBelow(lo);
    let bandArea = 0;
    let beyond = 0;
    for (let k = 0; k < nt; k++) {
      const hc = ch[k]!;
      if (hc >= lo && hc <= hi) {
        bandArea += area[k]!;
        continue;
      }
      // Beyond an end the engine keeps the shell outside the boundary's radius; an end cap's shell lies inside it.
      if (Math.abs(axial[k]!) > 0.7) continue;
      const r = radius[k]!;
      const r1 = Math.max(r, hc > hi ? cuts.outletRadius_mm : cuts.inletRadius_mm);
      const r2 = r + t;
      if (r2 > r1 && r > 0) beyond += (area[k]! * (r2 * r2 - r1 * r1)) / (2 * r);
    }
    let curvature = 0;
    for (let e = 0; e < edgeWeight.length; e++) {
      if (edgeHeight[e]! >= lo && edgeHeight[e]! <= hi) curvature += edgeWeight[e]! / 2;
    }
    const cell = dp ** 3;
    return {
      fluid: Math.round(lumen / cell),
      wall: Math.round((bandArea * t + curvature * t * t + beyond) / cell),
    };
  };
}
