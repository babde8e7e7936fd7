import { heatmapPixels } from './heatmapImage';

// The browser half of the heatmap image (heatmapImage.ts stays free of the DOM: the Node bench and a worker use it).

/** The matrix as a PNG data URL, or null where the browser gives no 2D canvas (jsdom, a worker without one). */
export function heatmapImageUrl(rows: readonly ArrayLike<number>[], bins: number): string | null {
  if (rows.length === 0 || bins === 0 || typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  canvas.width = rows.length;
  canvas.height = bins;
  let context: CanvasRenderingContext2D | null = null;
  try {
    context = canvas.getContext('2d');
  } catch {
    return null;
  }
  if (!context) return null;
  context.putImageData(new ImageData(heatmapPixels(rows, bins), rows.length, bins), 0, 0);
  return canvas.toDataURL('image/png');
}
