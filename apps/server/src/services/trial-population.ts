import type { TrialInstanceOutcome, TrialInstancePopulation } from '@insilico/contracts';
import { parseSsmInstance } from './ssm.service';
import { outcomeFigures, pearson, type ReportOutcomeInput } from './trial-report-figures';

/**
 * An SSM trial's named instances as a population (docs/decisions/trials-on-ssm-population.md): each instance's mode
 * scores read from its shape's label (`mean`, `2,0,-1.5`: SD per mode), and per outcome the report's figures (summary,
 * extremes, pass count; `outcomeFigures`, one code for both) and Pearson's r with each mode any instance moves.
 */
export function instancePopulation(
  ssm: { id: string; name: string; modeCount: number },
  instances: readonly { id: string; name: string; shape: string }[],
  outcomes: readonly ReportOutcomeInput[],
): TrialInstancePopulation {
  const scores = instances.map((i) => parseSsmInstance(i.shape, Math.max(ssm.modeCount, 1)));
  const moved = Math.max(0, ...scores.map((s) => s.length));
  const modes = Array.from({ length: moved }, (_, k) => k + 1);
  const modeScores = scores.map((s) => modes.map((m) => s[m - 1] ?? 0));
  const ids = instances.map((i) => i.id);
  return {
    ssm,
    modes,
    instances: instances.map((i, row) => ({ ...i, modeScores: modeScores[row]! })),
    outcomes: outcomes.map((o): TrialInstanceOutcome => {
      const f = outcomeFigures(ids, o);
      const s = f.summary;
      return {
        key: o.key,
        missing: f.missing,
        summary: s && {
          n: s.n,
          mean: s.mean,
          sd: Number.isFinite(s.sd) ? s.sd : null,
          min: s.min,
          q1: s.q1,
          median: s.median,
          q3: s.q3,
          max: s.max,
        },
        lowest: f.lowest && { id: f.lowest.patientId, value: f.lowest.value },
        highest: f.highest && { id: f.highest.patientId, value: f.highest.value },
        pass: f.pass && { count: f.pass.count, n: f.pass.n },
        modeCorrelations: modes.map((_, k) =>
          pearson(
            modeScores.map((row) => row[k]!),
            o.values,
          ),
        ),
      };
    }),
  };
}
