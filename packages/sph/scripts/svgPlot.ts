// A line plot as a self-contained SVG (for the validation figures in docs/validation.md): series as polylines,
// optional reference points as circles, linear axes with ticks. No dependencies.

export interface PlotSeries {
  label: string;
  x: readonly number[];
  y: readonly number[];
  /** 'line' (default) or 'points'. */
  style?: 'line' | 'points';
  colour: string;
}

export interface PlotOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  width?: number;
  height?: number;
}

/** "Nice" tick values covering [lo, hi] (about 6 of them). */
function ticks(lo: number, hi: number): number[] {
  const raw = (hi - lo) / 6;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + 1e-9 * step; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The SVG text of a plot of `series`. */
export function svgPlot(series: readonly PlotSeries[], o: PlotOptions): string {
  const W = o.width ?? 720;
  const H = o.height ?? 400;
  const [left, right, top, bottom] = [64, 16, 36, 48];
  const xs = series.flatMap((s) => s.x);
  const ys = series.flatMap((s) => s.y);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const pad = 0.05 * (Math.max(...ys) - Math.min(...ys) || 1);
  const [y0, y1] = [Math.min(...ys) - pad, Math.max(...ys) + pad];
  const px = (x: number): number => left + ((x - x0) / (x1 - x0 || 1)) * (W - left - right);
  const py = (y: number): number => H - bottom - ((y - y0) / (y1 - y0)) * (H - top - bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${escape(o.title)}</text>`,
  ];
  for (const t of ticks(x0, x1)) {
    parts.push(
      `<line x1="${px(t)}" y1="${top}" x2="${px(t)}" y2="${H - bottom}" stroke="#e5e5e5"/>`,
      `<text x="${px(t)}" y="${H - bottom + 16}" text-anchor="middle">${t}</text>`,
    );
  }
  for (const t of ticks(y0, y1)) {
    parts.push(
      `<line x1="${left}" y1="${py(t)}" x2="${W - right}" y2="${py(t)}" stroke="#e5e5e5"/>`,
      `<text x="${left - 6}" y="${py(t) + 4}" text-anchor="end">${t}</text>`,
    );
  }
  parts.push(
    `<rect x="${left}" y="${top}" width="${W - left - right}" height="${H - top - bottom}" fill="none" stroke="black"/>`,
    `<text x="${(left + W - right) / 2}" y="${H - 10}" text-anchor="middle">${escape(o.xLabel)}</text>`,
    `<text transform="translate(16 ${(top + H - bottom) / 2}) rotate(-90)" text-anchor="middle">${escape(o.yLabel)}</text>`,
  );
  series.forEach((s, k) => {
    if (s.style === 'points') {
      s.x.forEach((x, i) =>
        parts.push(
          `<circle cx="${px(x).toFixed(1)}" cy="${py(s.y[i]!).toFixed(1)}" r="3.5" fill="none" stroke="${s.colour}"/>`,
        ),
      );
    } else {
      const pts = s.x.map((x, i) => `${px(x).toFixed(1)},${py(s.y[i]!).toFixed(1)}`).join(' ');
      parts.push(`<polyline points="${pts}" fill="none" stroke="${s.colour}" stroke-width="1.2"/>`);
    }
    const ly = top + 16 + 16 * k;
    parts.push(
      `<line x1="${W - right - 170}" y1="${ly - 4}" x2="${W - right - 150}" y2="${ly - 4}" stroke="${s.colour}" stroke-width="2"/>`,
      `<text x="${W - right - 144}" y="${ly}">${escape(s.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
