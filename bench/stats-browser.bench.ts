// `npm run bench -- stats`: the population analysis in headless Chromium — on the page's main thread and in a
// dedicated Web Worker (data transferred in, results structured-cloned back) — at 10,000 × 40, 1,000 × 40 and
// 200 × 20. Evidence for docs/decisions/stats-where-analysis-runs.md. Needs esbuild and playwright (hoisted
// devDependencies of the workspace) and Debian's /usr/bin/chromium; skips with a note when one is missing.
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import { CHROMIUM, browserTools } from './browserTools';

const statsEntry = fileURLToPath(new URL('../packages/stats/src/index.ts', import.meta.url));
const resolveDir = fileURLToPath(new URL('../packages/stats', import.meta.url));

// The same synthetic cohort as bench/stats.bench.ts.
const populationSource = `
import { mulberry32, type PopulationMatrix } from '@insilico/stats';
export function population(rows: number, cols: number): PopulationMatrix {
  const random = mulberry32(20261121);
  const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const factors = Array.from({ length: 4 }, () => Float64Array.from({ length: rows }, gaussian));
  const data = new Float64Array(rows * cols);
  for (let j = 0; j < cols; j++) {
    const loadings = Array.from({ length: 4 }, () => random() * 2 - 0.5);
    const mean = 20 + random() * 80;
    const scale = 1 + random() * 9;
    const skewed = j % 7 === 3;
    for (let i = 0; i < rows; i++) {
      let v = gaussian() * (j % 10 === 1 ? 0.1 : 1);
      for (let f = 0; f < 4; f++) v += (loadings[f] ?? 0) * (factors[f]?.[i] ?? 0);
      if (skewed) v = Math.exp(v / 3);
      data[j * rows + i] = Math.round((mean + scale * v) * 100) / 100;
    }
  }
  return { rows, cols, data };
}`;

const workerSource = `
import { analysePopulation } from '@insilico/stats';
self.onmessage = (e: MessageEvent<{ data: Float64Array; rows: number; cols: number }>) => {
  const t0 = performance.now();
  const result = analysePopulation({ rows: e.data.rows, cols: e.data.cols, data: e.data.data }, { sizing: { parameter: 0 } });
  self.postMessage({ ms: performance.now() - t0, result });
};`;

const pageSource = `
import { analysePopulation } from '@insilico/stats';
import { population } from './population';
declare const WORKER_CODE: string;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
(window as unknown as Record<string, unknown>).runBench = async (rows: number, cols: number) => {
  const m = population(rows, cols);
  for (let r = 0; r < 2; r++) analysePopulation(m, { sizing: { parameter: 0 } });
  const main: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    analysePopulation(m, { sizing: { parameter: 0 } });
    main.push(performance.now() - t0);
  }
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER_CODE], { type: 'text/javascript' })));
  const roundTrip: number[] = [];
  const inWorker: number[] = [];
  for (let r = 0; r < 7; r++) {
    const copy = Float64Array.from(m.data);
    const t0 = performance.now();
    const reply = await new Promise<{ ms: number }>((resolve) => {
      worker.onmessage = (e: MessageEvent<{ ms: number }>) => resolve(e.data);
      worker.postMessage({ data: copy, rows, cols }, [copy.buffer]);
    });
    if (r >= 2) {
      roundTrip.push(performance.now() - t0);
      inWorker.push(reply.ms);
    }
  }
  worker.terminate();
  return { browser: navigator.userAgent.match(/HeadlessChrome\\/[\\d.]+|Chrome\\/[\\d.]+/)?.[0] ?? navigator.userAgent, mainThread: median(main), worker: median(inWorker), roundTrip: median(roundTrip) };
};`;

async function main(): Promise<void> {
  const tools = await browserTools();
  if (!tools) return;
  const { esbuild, playwright } = tools;
  const plugins = [
    {
      name: 'virtual-population',
      setup(build: Esbuild.PluginBuild) {
        build.onResolve({ filter: /^\.\/population$/ }, () => ({ path: 'population', namespace: 'virtual' }));
        build.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({
          contents: populationSource,
          loader: 'ts',
          resolveDir,
        }));
      },
    },
  ];
  const common = {
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    alias: { '@insilico/stats': statsEntry },
    plugins,
  } as const;
  const worker = await esbuild.build({ ...common, stdin: { contents: workerSource, loader: 'ts', resolveDir } });
  const page = await esbuild.build({
    ...common,
    stdin: { contents: pageSource, loader: 'ts', resolveDir },
    define: { WORKER_CODE: JSON.stringify(worker.outputFiles[0]?.text ?? '') },
  });
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM });
  try {
    const tab = await browser.newPage();
    await tab.setContent('<!doctype html><title>stats</title>');
    await tab.addScriptTag({ content: page.outputFiles[0]?.text ?? '' });
    console.log(
      'population analysis in headless Chromium, median ms (main thread; inside a Web Worker; worker round trip with transfer in and results cloned back)',
    );
    for (const [rows, cols] of [
      [10_000, 40],
      [1_000, 40],
      [200, 20],
    ] as const) {
      const r = (await tab.evaluate(
        ([a, b]) => (globalThis as unknown as { runBench: (r: number, c: number) => Promise<unknown> }).runBench(a, b),
        [rows, cols] as const,
      )) as {
        browser: string;
        mainThread: number;
        worker: number;
        roundTrip: number;
      };
      console.log(
        `${r.browser}  ${rows} × ${cols}: main thread ${r.mainThread.toFixed(1)} ms, worker ${r.worker.toFixed(1)} ms, round trip ${r.roundTrip.toFixed(1)} ms`,
      );
    }
  } finally {
    await browser.close();
  }
}

await main();
