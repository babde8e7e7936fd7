// `npm run bench -- heatmap`: the histogram/heatmap card's 999 × 999 heatmap in headless Chromium (issue 16 "Speed":
// binning plus drawing ≤ 300 ms): 999 timesteps × 10,000 particles binned into 999 bins in a Web Worker-ready pure
// module, turned into one PNG through a canvas, and drawn by ECharts (SVG renderer, as the cards) with its axes
// around the image. Reference in the same run: the same matrix drawn by ECharts' own heatmap series (one rectangle
// per non-empty cell, canvas renderer), which is what drawing it without the image would cost. Also checks that the
// pointer tooltip names the cell under the pointer. Needs esbuild and playwright (hoisted devDependencies of the
// workspace) and Debian's /usr/bin/chromium; skips with a note when one is missing. Figures: docs/benchmarks.md.
import { fileURLToPath } from 'node:url';
import { CHROMIUM, browserTools } from './browserTools';

const resolveDir = fileURLToPath(new URL('../apps/web', import.meta.url));

const pageSource = `
import * as echarts from 'echarts/core';
import { CustomChart, HeatmapChart } from 'echarts/charts';
import { GridComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { heatmap, layoutFromBinCount, valueRange } from '@insilico/contracts/binning';
import { heatmapPainter } from './src/features/simulation-results/heatmapCanvas';
import { heatmapOption, heatmapTooltip } from './src/features/simulation-results/analysisChartOption';
echarts.use([CustomChart, HeatmapChart, GridComponent, TooltipComponent, VisualMapComponent, CanvasRenderer, SVGRenderer]);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
let state = 20261125;
const random = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 4294967296; };
// Particles drifting up over time: a diagonal band, as an output that grows during a run.
const columns = Array.from({ length: 999 }, (_, t) => Float32Array.from({ length: 10_000 }, () => 50 * (0.5 * random() ** 2 + 0.5 * t / 999)));

function frame() { return new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))); }

(window as unknown as Record<string, unknown>).runBench = async () => {
  const el = document.createElement('div');
  el.style.cssText = 'width:1000px;height:542px';
  document.body.append(el);
  const bin: number[] = [], image: number[] = [], draw: number[] = [], total: number[] = [], reference: number[] = [];
  let tooltip = '';
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    const { min, max } = valueRange(columns);
    const layout = layoutFromBinCount(min, max, 999);
    const rows = heatmap(columns, 0, 998, layout);
    const t1 = performance.now();
    const paint = heatmapPainter(rows, 999);
    const t2 = performance.now();
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    const data = { data: rows, min, max, binSize: layout.binSize, timerange: { start: 0, end: 998 } };
    chart.setOption({ animation: false, ...heatmapOption(data, 'Velocity (m/s)', paint) });
    const svg = chart.renderToSVGString();
    const t3 = performance.now();
    if (r >= 2) { bin.push(t1 - t0); image.push(t2 - t1); draw.push(t3 - t2); total.push(t3 - t0); }
    // The pointer tooltip at the middle of the plot (what EChart.tsx does on mousemove).
    const [x, y] = chart.convertFromPixel({ gridIndex: 0 }, [500, 271]) as [number, number];
    tooltip = (heatmapTooltip(data, x, y) ?? '') + ' | svg ' + svg.length + ' chars';
    chart.dispose();
    // Reference: ECharts' own heatmap series, one rectangle per non-empty cell (canvas renderer).
    if (r >= 4) {
      const cells: [number, number, number][] = [];
      rows.forEach((row, t) => row.forEach((c, b) => { if (c > 0) cells.push([t, b, c]); }));
      const s0 = performance.now();
      const ref = echarts.init(el, undefined, { renderer: 'canvas' });
      ref.setOption({ animation: false, xAxis: { type: 'category' , data: rows.map((_, t) => t + 1) }, yAxis: { type: 'category', data: Array.from({ length: 999 }, (_, b) => b) },
        visualMap: { min: 0, max: 50, show: false }, series: [{ type: 'heatmap', data: cells, progressive: 0 }] });
      await frame();
      reference.push(performance.now() - s0);
      ref.dispose();
    }
  }
  return { browser: navigator.userAgent.match(/HeadlessChrome\\/[\\d.]+|Chrome\\/[\\d.]+/)?.[0] ?? '', bin: median(bin), image: median(image), draw: median(draw), total: median(total), reference: median(reference), tooltip };
};`;

async function main(): Promise<void> {
  const tools = await browserTools();
  if (!tools) return;
  const { esbuild, playwright } = tools;
  const page = await esbuild.build({
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    stdin: { contents: pageSource, loader: 'ts', resolveDir },
  });
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM });
  try {
    const tab = await browser.newPage();
    await tab.setContent('<!doctype html><title>heatmap</title><body></body>');
    await tab.addScriptTag({ content: page.outputFiles[0]?.text ?? '' });
    const r = (await tab.evaluate(() =>
      (globalThis as unknown as { runBench: () => Promise<unknown> }).runBench(),
    )) as Record<string, number | string>;
    const ms = (v: unknown) => `${Number(v).toFixed(1).padStart(8)} ms`;
    console.log(`999 × 999 heatmap in ${r.browser}, median of 5 runs after 2 warm-ups`);
    console.log(`binning (value range + 999 histograms of 10,000)   ${ms(r.bin)}`);
    console.log(`image (RGBA pixels into a 999 × 999 canvas)         ${ms(r.image)}`);
    console.log(`ECharts axes + image stretched to the plot + SVG   ${ms(r.draw)}`);
    console.log(`binning + drawing                                  ${ms(r.total)}   (target ≤ 300 ms)`);
    console.log(`reference: ECharts heatmap series, canvas          ${ms(r.reference)}`);
    console.log(
      `ratio reference / ours (drawing)                   ${(Number(r.reference) / (Number(r.image) + Number(r.draw))).toFixed(1)}`,
    );
    console.log(`tooltip at the plot's middle: ${r.tooltip}`);
  } finally {
    await browser.close();
  }
}

await main();
