import { heatmapPixels } from './heatmapImage';

// The browser half of the heatmap image (heatmapImage.ts stays free of the DOM: the Node bench and a worker use it).

/** Draws the image at a plot area's size in px (a canvas, which ECharts' SVG renderer embeds as a PNG). */
export type HeatmapPainter = (width: number, height: number) => HTMLCanvasElement;

function canvas2d(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] | null {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  let context: CanvasRenderingContext2D | null = null;
  try {
    context = canvas.getContext('2d');
  } catch {
    return null;
  }
  return context ? [canvas, context] : null;
}

/**
 * The matrix as one image, one pixel per cell, and a painter that stretches it to the plot area: an SVG `<image>`
 * keeps its aspect ratio, so the image must already have the plot's size or it would not fill the axes. The
 * stretched copy is kept per size (a redraw at the same size costs nothing). Null where the browser gives no 2D
 * canvas (jsdom).
 */
export function heatmapPainter(rows: readonly ArrayLike<number>[], bins: number): HeatmapPainter | null {
  if (rows.length === 0 || bins === 0 || typeof document === 'undefined') return null;
  const source = canvas2d(rows.length, bins);
  if (!source) return null;
  source[1].putImageData(new ImageData(heatmapPixels(rows, bins), rows.length, bins), 0, 0);
  let last: { width: number; height: number; canvas: HTMLCanvasElement } | null = null;
  return (width, height) => {
    const w = Math.max(1, Math.round(width));
    const h = Math.max(1, Math.round(height));
    if (last && last.width === w && last.height === h) return last.canvas;
    const target = canvas2d(w, h);
    if (!target) return source[0];
    // Cells stay sharp squares, not blurred into their neighbours.
    target[1].imageSmoothingEnabled = false;
    target[1].drawImage(source[0], 0, 0, w, h);
    last = { width: w, height: h, canvas: target[0] };
    return target[0];
  };
}
