/**
 * The heatmap as one image (issue 16 item 7: a 999 × 999 heatmap is drawn as an image, ECharts only draws the axes,
 * tooltip and export around it). Pixel x is the timestep, pixel y the bin with the lowest bin at the bottom.
 */

// Viridis at five stops: readable in grey and for colour-blind readers.
const stops: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The colour of t in [0, 1]. */
export function heatColor(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = stops[i]!;
  const b = stops[i + 1]!;
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** The largest count of the matrix. */
export function maxCount(rows: readonly ArrayLike<number>[]): number {
  let max = 0;
  for (const row of rows) for (let i = 0; i < row.length; i++) if (row[i]! > max) max = row[i]!;
  return max;
}

/**
 * RGBA pixels of the matrix (`rows[t][bin]`), `rows.length` wide and `bins` high. An empty cell is transparent; a
 * count c shows log(1 + c) / log(1 + max) on the colour scale, so a few stray particles stay visible next to a peak.
 */
export function heatmapPixels(rows: readonly ArrayLike<number>[], bins: number): Uint8ClampedArray<ArrayBuffer> {
  const width = rows.length;
  const pixels = new Uint8ClampedArray(width * bins * 4);
  const scale = 1 / Math.log1p(Math.max(1, maxCount(rows)));
  // 256 colours precomputed: a million cells then cost a lookup each.
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) lut.set(heatColor(i / 255), i * 3);
  for (let t = 0; t < width; t++) {
    const row = rows[t]!;
    for (let b = 0; b < bins; b++) {
      const c = row[b] ?? 0;
      if (c <= 0) continue;
      const level = Math.round(Math.log1p(c) * scale * 255) * 3;
      const at = ((bins - 1 - b) * width + t) * 4;
      pixels[at] = lut[level]!;
      pixels[at + 1] = lut[level + 1]!;
      pixels[at + 2] = lut[level + 2]!;
      pixels[at + 3] = 255;
    }
  }
  return pixels;
}
