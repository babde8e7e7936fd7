import { encodePng } from './pngEncode';
import type { TriangleMesh, Vec3 } from './types';

/** Options of a preview image; every field has a default. */
export interface MeshPreviewOptions {
  /** Width and height of the square image, px (default 256). */
  readonly size?: number;
  /** Samples per pixel along each axis, for smooth edges (default 2, i.e. 4 samples per pixel). */
  readonly supersample?: number;
  /** Direction from the object towards the viewer (default (1, −1, 1): front-right, above, z up). */
  readonly viewFrom?: Vec3;
  /** Surface colour, sRGB 0–255 (default a neutral steel blue). */
  readonly color?: Vec3;
  /** Empty border, as a fraction of the size (default 0.06). */
  readonly margin?: number;
}

/** An image as straight-alpha RGBA bytes, row after row from the top. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

const LIGHT = normalize([-0.35, 0.55, 1]); // in view space: from upper left, in front
const AMBIENT = 0.28;

/**
 * Renders a mesh into a small image: orthographic view fitted to the mesh, flat shading (Lambert, two-sided, so a
 * flipped triangle still shows), a z-buffer for visibility, transparent background, supersampled edges. Pure
 * TypeScript; a million triangles take a fraction of a second because most cover no more than a sample or two.
 */
export function renderMeshPreview(mesh: TriangleMesh, options: MeshPreviewOptions = {}): RgbaImage {
  const size = options.size ?? 256;
  const ss = options.supersample ?? 2;
  if (!Number.isInteger(size) || size < 1 || size > 4096) throw new RangeError('preview size: 1 to 4096 px');
  if (!Number.isInteger(ss) || ss < 1 || ss > 4) throw new RangeError('preview supersample: 1 to 4');
  const color = options.color ?? [120, 150, 185];
  const n = size * ss;
  const { sx, sy, sz } = project(mesh, options.viewFrom ?? [1, -1, 1], n, (options.margin ?? 0.06) * n);
  const depth = new Float32Array(n * n).fill(-Infinity);
  const shade = new Float32Array(n * n);
  rasterise(mesh.indices, sx, sy, sz, n, depth, shade);
  return resolve(depth, shade, n, ss, color);
}

/** The preview as PNG bytes (see `renderMeshPreview` for the options). */
export function meshPreviewPng(mesh: TriangleMesh, options: MeshPreviewOptions = {}): Uint8Array {
  const image = renderMeshPreview(mesh, options);
  return encodePng(image.rgba, image.width, image.height);
}

/** Screen coordinates of every vertex: x right, y down (samples), z towards the viewer. */
function project(
  mesh: TriangleMesh,
  viewFrom: Vec3,
  n: number,
  margin: number,
): { sx: Float64Array; sy: Float64Array; sz: Float64Array } {
  const e = normalize(viewFrom);
  // Right = view direction × world up (z), or × y when looking straight along z; up = right × view direction.
  const f: Vec3 = [-e[0], -e[1], -e[2]];
  const worldUp: Vec3 = Math.abs(e[2]) > 0.999 ? [0, 1, 0] : [0, 0, 1];
  const right = normalize(cross(f, worldUp));
  const up = cross(right, f);
  const p = mesh.positions;
  const count = p.length / 3;
  const sx = new Float64Array(count);
  const sy = new Float64Array(count);
  const sz = new Float64Array(count);
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let v = 0; v < count; v++) {
    const x = p[3 * v] as number;
    const y = p[3 * v + 1] as number;
    const z = p[3 * v + 2] as number;
    const u = x * right[0] + y * right[1] + z * right[2];
    const w = x * up[0] + y * up[1] + z * up[2];
    sx[v] = u;
    sy[v] = w;
    sz[v] = x * e[0] + y * e[1] + z * e[2];
    if (u < x0) x0 = u;
    if (u > x1) x1 = u;
    if (w < y0) y0 = w;
    if (w > y1) y1 = w;
  }
  const extent = Math.max(x1 - x0, y1 - y0);
  const scale = extent > 0 ? (n - 2 * margin) / extent : 1;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  for (let v = 0; v < count; v++) {
    sx[v] = n / 2 + ((sx[v] as number) - cx) * scale;
    sy[v] = n / 2 - ((sy[v] as number) - cy) * scale; // image rows run downwards
    sz[v] = (sz[v] as number) * scale;
  }
  return { sx, sy, sz };
}

/** Z-buffered flat-shaded triangles; samples at pixel centres, edge functions inclusive on both sides. */
function rasterise(
  indices: Uint32Array,
  sx: Float64Array,
  sy: Float64Array,
  sz: Float64Array,
  n: number,
  depth: Float32Array,
  shade: Float32Array,
): void {
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] as number;
    const b = indices[t + 1] as number;
    const c = indices[t + 2] as number;
    const ax = sx[a] as number;
    const ay = sy[a] as number;
    const bx = sx[b] as number;
    const by = sy[b] as number;
    const cx = sx[c] as number;
    const cy = sy[c] as number;
    const minX = Math.max(0, Math.ceil(Math.min(ax, bx, cx) - 0.5));
    const maxX = Math.min(n - 1, Math.floor(Math.max(ax, bx, cx) - 0.5));
    const minY = Math.max(0, Math.ceil(Math.min(ay, by, cy) - 0.5));
    const maxY = Math.min(n - 1, Math.floor(Math.max(ay, by, cy) - 0.5));
    if (minX > maxX || minY > maxY) continue;
    const area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (area === 0) continue;
    const az = sz[a] as number;
    const bz = sz[b] as number;
    const cz = sz[c] as number;
    // Face normal in view space (y flipped back to up) for the two-sided Lambert term.
    const ux = bx - ax;
    const uy = ay - by;
    const uz = bz - az;
    const vx = cx - ax;
    const vy = ay - cy;
    const vz = cz - az;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    const lambert = Math.abs((nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]) / len);
    const intensity = AMBIENT + (1 - AMBIENT) * lambert;
    const inv = 1 / area;
    for (let py = minY; py <= maxY; py++) {
      const y = py + 0.5;
      for (let px = minX; px <= maxX; px++) {
        const x = px + 0.5;
        // Barycentric weights of the sample; all ≥ 0 inside, whatever the winding (divided by the signed area).
        const wa = ((bx - x) * (cy - y) - (cx - x) * (by - y)) * inv;
        const wb = ((cx - x) * (ay - y) - (ax - x) * (cy - y)) * inv;
        const wc = 1 - wa - wb;
        if (wa < 0 || wb < 0 || wc < 0) continue;
        const z = wa * az + wb * bz + wc * cz;
        const i = py * n + px;
        if (z > (depth[i] as number)) {
          depth[i] = z;
          shade[i] = intensity;
        }
      }
    }
  }
}

/** Averages ss × ss samples per pixel: colour over the covered samples, alpha = covered fraction. */
function resolve(depth: Float32Array, shade: Float32Array, n: number, ss: number, color: Vec3): RgbaImage {
  const size = n / ss;
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let covered = 0;
      let sum = 0;
      for (let j = 0; j < ss; j++) {
        for (let i = 0; i < ss; i++) {
          const s = (y * ss + j) * n + x * ss + i;
          if ((depth[s] as number) > -Infinity) {
            covered++;
            sum += shade[s] as number;
          }
        }
      }
      if (covered === 0) continue;
      const k = (y * size + x) * 4;
      const light = sum / covered;
      rgba[k] = Math.min(255, Math.round(color[0] * light));
      rgba[k + 1] = Math.min(255, Math.round(color[1] * light));
      rgba[k + 2] = Math.min(255, Math.round(color[2] * light));
      rgba[k + 3] = Math.round((255 * covered) / (ss * ss));
    }
  }
  return { width: size, height: size, rgba };
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  if (!(l > 0)) throw new RangeError('preview: a direction must not be the zero vector');
  return [v[0] / l, v[1] / l, v[2] / l];
}
