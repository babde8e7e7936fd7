import type { CohortParameterTable } from '@insilico/contracts';

/** The measurement columns of the page's table (shared with the server's analysis report, in contracts). */
export { readyOrdersOn, withMeasurements } from '@insilico/contracts';

/** What a patient left out of a calculation lacks: a trial outcome, a measurement, or either (for the page's note). */
export function lackingWhat(table: CohortParameterTable, keys: readonly string[]): string {
  const groups = new Set(
    keys.flatMap((key) => {
      const j = table.parameters.findIndex((p) => p.key === key);
      return j >= 0 && table.values[j]!.some(Number.isNaN) ? [table.parameters[j]!.group] : [];
    }),
  );
  if (groups.has('outcome') && groups.has('measurement')) return 'trial outcome or measurement';
  return groups.has('measurement') ? 'measurement' : 'trial outcome';
}
