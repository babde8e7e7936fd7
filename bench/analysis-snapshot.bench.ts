// `npm run bench -- analysis-snapshot`: an analysis' results snapshot (issue 20 item 7) — the population analysis,
// the content as plain JSON and its SHA-256 — against a reference in the same run: the analysis alone
// (`runReportAnalysis`, what the analysis report runs before laying out its PDF). N patients × 6 parameters with a
// device fit; on the main thread here, in a CPU-pool thread in the server. Figures go to docs/benchmarks.md,
// "Analysis results snapshot".
import { analysisSettingsSchema, type CohortParameterTable } from '@insilico/contracts';
import { mulberry32 } from '@insilico/stats';
import { runReportAnalysis, type AnalysisReportInput } from '../apps/server/src/reports/analysis-report';
import { analysisSnapshot } from '../apps/server/src/reports/analysis-snapshot';

const SIZES = (process.env.ANALYSIS_SNAPSHOT_BENCH_PATIENTS ?? '200,1000,5000').split(',').map(Number);
const REPEATS = Number(process.env.ANALYSIS_SNAPSHOT_BENCH_REPEATS ?? 5);
const keys = ['a', 'b', 'c', 'd', 'e', 'f'];

function prepared(n: number): Pick<AnalysisReportInput, 'analysis' | 'table' | 'measurements'> {
  const random = mulberry32(7);
  const patients = Array.from({ length: n }, (_, i) => `SYN-${i}`);
  const table: CohortParameterTable = {
    cohortId: 'c1',
    synthetic: true,
    patients,
    sex: patients.map(() => 'female'),
    age: patients.map(() => 80),
    parameters: keys.map((key) => ({ key, group: 'cardiac', label: key, unit: 'mm', decimals: 1 })),
    values: keys.map((_, j) => patients.map(() => 20 + j + 5 * (random() + random() + random()))),
  };
  const settings = analysisSettingsSchema.parse({
    sizingParameter: 'a',
    deviceFits: [
      { versionId: null, label: 'v1', sizes: [{ name: 'S', ranges: [{ parameter: 'a', min: 20, max: 30 }] }] },
    ],
  });
  return {
    analysis: {
      id: 'a1',
      name: 'Bench',
      revision: 1,
      updatedAt: '',
      parameters: keys,
      droppedParameters: [],
      settings,
      excluded: [],
    },
    table,
    measurements: [],
  };
}

function median(run: () => unknown): number {
  run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

for (const n of SIZES) {
  const input = prepared(n);
  const analysis = median(() => runReportAnalysis(input));
  let bytes = 0;
  const snapshot = median(() => {
    const { content } = analysisSnapshot({
      codeVersion: '1.0.0',
      analysisId: 'a1',
      revision: 1,
      cohort: { id: 'c1', name: 'Bench', modelVersion: 'm1' },
      saved: { name: 'Bench', parameters: keys, settings: input.analysis.settings, excluded: [] },
      prepared: input,
      refusal: null,
    });
    bytes = JSON.stringify(content).length;
  });
  console.log(
    `${n} patients × ${keys.length} parameters: analysis ${analysis.toFixed(1)} ms, snapshot (analysis + JSON + ` +
      `SHA-256) ${snapshot.toFixed(1)} ms (× ${(snapshot / analysis).toFixed(2)}), content ${(bytes / 1024).toFixed(0)} KiB`,
  );
}
