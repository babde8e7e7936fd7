import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import { describe, expect, it } from 'vitest';
import { paravalvularGapArea, type GapInput } from './paravalvularGap';

/**
 * Checked against analytic areas of known shapes (independent of the polar integration): the lumen is a prism whose
 * section is the shape (a circle as a 2,000-gon, an ellipse, a square), the device a tube of particles at spacing dp
 * whose outer surface (particle centres + dp/2) is a circle of radius r. Tolerance: 10⁻⁴ of the analytic area (the
 * 2,000-gon's area is 1.6 × 10⁻⁶ below the circle's; the midpoint rule in 3,600 directions is far below that).
 */
const TOLERANCE = 1e-4;

/** A closed-sided prism (mm) from z = −10 to 10 over a counter-clockwise section polygon. */
function prism(section: readonly (readonly [number, number])[]): TriangleMesh {
  const positions: number[] = [];
  for (const [x, y] of section) positions.push(x, y, -10, x, y, 10);
  const indices: number[] = [];
  const n = section.length;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    indices.push(2 * i, 2 * j, 2 * j + 1, 2 * i, 2 * j + 1, 2 * i + 1);
  }
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

const ellipse = (a: number, b: number, n = 2000) =>
  Array.from({ length: n }, (_, i) => {
    const t = (2 * Math.PI * i) / n;
    return [a * Math.cos(t), b * Math.sin(t)] as const;
  });

/**
 * A tube of particles about (cx, cy): three rings per layer (outer surface at radius r), layers at z = −dp, 0, dp
 * (within one spacing of the plane z = 0) and one at 3 dp (outside it, never counted).
 */
function tube(r: number, dp: number, [cx, cy] = [0, 0]) {
  const x: number[] = [];
  const y: number[] = [];
  const z: number[] = [];
  for (const layer of [-dp, 0, dp, 3 * dp])
    for (let k = 0; k < 3; k++) {
      const radius = r - dp / 2 - k * dp;
      const count = Math.ceil((2 * Math.PI * radius) / dp);
      for (let i = 0; i < count; i++) {
        const t = (2 * Math.PI * (i + 0.5 * k)) / count;
        // The far layer is wider: it would cover the gap were it counted.
        const grow = layer > 2 * dp ? 5 : 0;
        x.push(cx + (radius + grow) * Math.cos(t));
        y.push(cy + (radius + grow) * Math.sin(t));
        z.push(layer);
      }
    }
  return { x, y, z };
}

const input = (lumen: TriangleMesh, device: GapInput['device'], dp: number): GapInput => ({
  lumen,
  point: [0, 0, 0],
  normal: [0, 0, 1],
  device,
  dp_mm: dp,
});

function gapOf(result: ReturnType<typeof paravalvularGapArea>): number {
  if (!result.ok) throw new Error(result.reason);
  return result.gap_mm2;
}

/** Area of an ellipse (a ≥ r ≥ b) outside a concentric circle of radius r: 2[ab·atan((a/b) tan θ*) − r²θ*]. */
function ellipseOutsideCircle(a: number, b: number, r: number): number {
  const sin2 = ((a * a * b * b) / (r * r) - b * b) / (a * a - b * b);
  const theta = Math.asin(Math.sqrt(sin2));
  return 2 * (a * b * Math.atan((a / b) * Math.tan(theta)) - r * r * theta);
}

describe('paravalvular gap area against analytic areas', () => {
  it('a circular device in a circular lumen: π(R² − r²), also off-centre', () => {
    const lumen = prism(ellipse(12, 12));
    const expected = Math.PI * (12 ** 2 - 10 ** 2);
    const centred = paravalvularGapArea(input(lumen, tube(10, 0.5), 0.5));
    expect(gapOf(centred)).toBeCloseTo(expected, 0);
    expect(Math.abs(gapOf(centred) / expected - 1)).toBeLessThan(TOLERANCE);
    expect(centred.ok && centred.lumen_mm2 / (Math.PI * 144) - 1).toBeLessThan(TOLERANCE);
    const offset = gapOf(paravalvularGapArea(input(lumen, tube(10, 0.5, [1.5, -0.5]), 0.5)));
    expect(Math.abs(offset / expected - 1)).toBeLessThan(TOLERANCE);
  });

  it('a circular device in an elliptic lumen it touches on the long axis only', () => {
    const expected = ellipseOutsideCircle(14, 10, 12);
    const gap = gapOf(paravalvularGapArea(input(prism(ellipse(14, 10)), tube(12, 0.5), 0.5)));
    expect(Math.abs(gap / expected - 1)).toBeLessThan(TOLERANCE);
    // Smaller than the ellipse less the circle: where the circle reaches past the short axis it seals, no negative gap.
    expect(gap).toBeGreaterThan(Math.PI * 14 * 10 - Math.PI * 144);
  });

  it('a circular device in a square lumen: s² − πr², at the coarse spacing too', () => {
    const square = [
      [-12, -12],
      [12, -12],
      [12, 12],
      [-12, 12],
    ] as const;
    const expected = 24 * 24 - Math.PI * 100;
    for (const dp of [0.5, 1.2]) {
      const gap = gapOf(paravalvularGapArea(input(prism(square), tube(10, dp), dp)));
      expect(Math.abs(gap / expected - 1), `dp ${dp}`).toBeLessThan(TOLERANCE);
    }
  });

  it('a device pressed into the wall all round seals: no gap', () => {
    expect(gapOf(paravalvularGapArea(input(prism(ellipse(12, 12)), tube(12.5, 0.5), 0.5)))).toBe(0);
  });

  it('measures in a tilted plane the same as in its own frame', () => {
    // Rotate lumen, device and plane by 40° about the x axis.
    const c = Math.cos(0.7);
    const s = Math.sin(0.7);
    const turn = (x: number, y: number, z: number): Vec3 => [x, c * y - s * z, s * y + c * z];
    const lumen = prism(ellipse(14, 10));
    const p = lumen.positions;
    const turned = new Float64Array(p.length);
    for (let i = 0; i < p.length; i += 3) turned.set(turn(p[i]!, p[i + 1]!, p[i + 2]!), i);
    const device = tube(12, 0.5);
    const moved = device.x.map((x, i) => turn(x, device.y[i]!, device.z[i]!));
    const gap = gapOf(
      paravalvularGapArea({
        lumen: { positions: turned, indices: lumen.indices },
        point: [0, 0, 0],
        normal: turn(0, 0, 1),
        device: { x: moved.map((m) => m[0]), y: moved.map((m) => m[1]), z: moved.map((m) => m[2]) },
        dp_mm: 0.5,
      }),
    );
    expect(Math.abs(gap / ellipseOutsideCircle(14, 10, 12) - 1)).toBeLessThan(TOLERANCE);
  });

  it('says why when there is nothing to measure', () => {
    const lumen = prism(ellipse(12, 12));
    const away = paravalvularGapArea({ ...input(lumen, tube(10, 0.5), 0.5), point: [0, 0, 8] });
    expect(away).toEqual({ ok: false, reason: 'The device does not reach the annulus plane at the end of the run.' });
    const outside = paravalvularGapArea(input(lumen, tube(3, 0.5, [30, 0]), 0.5));
    expect(outside.ok).toBe(false);
  });
});
