import {
  enclosedVolume_mm3,
  loftIndices,
  loftVertexCount,
  type LoftOptions,
  type TriangleMesh64,
} from '@insilico/mesh';
import { CHAMBER_RINGS, CHAMBER_RING_SIZE, writeChamberRings, type TruncatedEllipsoid } from './truncatedEllipsoid';

/** Result of {@link myocardiumMesh}: the closed shell and its wall thickness. */
export interface Myocardium {
  readonly mesh: TriangleMesh64;
  /** Uniform offset of the epicardial ellipsoid's semi-axes over the endocardial ones, mm. */
  readonly wall_mm: number;
  /** Epicardial apex z in the chamber frame, mm. */
  readonly apexZ_mm: number;
}

/**
 * LV myocardium as one closed shell (mm, chamber frame: base plane z = 0, apex −z): the epicardial truncated
 * ellipsoid (semi-axes of the cavity + wall, same centre) from its apex to the base, an annular base strip, and
 * the endocardial surface (exactly the cavity mesh's rings) back to the cavity apex, facing the cavity. The wall
 * is solved by secant steps on the measured shell volume until it equals `volume_mm3` to 1e-10.
 */
export function myocardiumMesh(cavity: TruncatedEllipsoid, volume_mm3: number): Myocardium {
  const options: LoftOptions = { ringCount: 2 * CHAMBER_RINGS, ringSize: CHAMBER_RING_SIZE };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  const mesh = { positions, indices: loftIndices(options) };
  writeChamberRings(cavity, positions, options, CHAMBER_RINGS, true);
  positions[positions.length - 1] = -cavity.baseOffset - cavity.halfLength;
  const h = cavity.baseOffset;
  const residual = (wall: number): number => {
    const outer: TruncatedEllipsoid = {
      radiusX: cavity.radiusX + wall,
      radiusY: cavity.radiusY + wall,
      halfLength: cavity.halfLength + wall,
      baseOffset: h,
    };
    positions[2] = -h - outer.halfLength;
    writeChamberRings(outer, positions, options, 0, false);
    return enclosedVolume_mm3(mesh) - volume_mm3;
  };
  // Thin-shell start: volume ≈ wall × endocardial area (area of a prolate spheroid ≈ 4π (ab + bc + ca)/3 halved).
  const area =
    (2 * Math.PI * (cavity.radiusX * cavity.radiusY + (cavity.radiusX + cavity.radiusY) * cavity.halfLength)) / 3;
  let w0 = volume_mm3 / area;
  let f0 = residual(w0);
  let w1 = w0 * (f0 > 0 ? 0.8 : 1.25);
  let f1 = residual(w1);
  for (let k = 0; k < 60 && Math.abs(f1) > 1e-10 * volume_mm3; k++) {
    const w2 = f1 === f0 ? w1 : w1 - (f1 * (w1 - w0)) / (f1 - f0);
    w0 = w1;
    f0 = f1;
    w1 = w2 > 0 ? w2 : w1 / 2;
    f1 = residual(w1);
  }
  return { mesh, wall_mm: w1, apexZ_mm: -h - cavity.halfLength - w1 };
}
