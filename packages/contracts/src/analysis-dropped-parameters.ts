import { z } from 'zod';
import type { AnalysisSettings } from './analyses';
import { text } from './text';

/**
 * A parameter the server took out of an analysis at a save because it is gone (a deleted trial's outcome, issue 17):
 * the key, why, and where the analysis used it. The save goes on without it; the page says so.
 */
export const droppedAnalysisParameterSchema = z.object({
  parameter: text(),
  /** What it measured, as far as the server still knows (a deleted trial's outcome: the outcome's label). */
  label: text(),
  reason: text(),
  /** Where the analysis used it, in words: "the analysed parameters", "the sizing proposal", "size M of Valve v2". */
  removedFrom: z.array(text()),
});
export type DroppedAnalysisParameter = z.infer<typeof droppedAnalysisParameterSchema>;

export interface AnalysisParameterUse {
  parameters: readonly string[];
  settings: AnalysisSettings;
}

/** Every parameter key an analysis reads: the analysed ones, the sizing proposal's and the device-fit ranges'. */
export function analysisKeysInUse({ parameters, settings }: AnalysisParameterUse): string[] {
  const ranges = settings.deviceFits.flatMap((fit) =>
    fit.sizes.flatMap((size) => size.ranges.map((range) => range.parameter)),
  );
  const sizing = settings.sizingParameter === null ? [] : [settings.sizingParameter];
  return [...new Set([...parameters, ...sizing, ...ranges])];
}

/**
 * The analysis without the given keys: out of the analysed parameters, the sizing proposal (none left), and every
 * device-fit range (a size left without ranges goes, as a size needs one). `removedFrom` says, per key, where it was.
 */
export function withoutAnalysisParameters(
  use: AnalysisParameterUse,
  keys: readonly string[],
): { parameters: string[]; settings: AnalysisSettings; removedFrom: Map<string, string[]> } {
  const gone = new Set(keys);
  const removedFrom = new Map<string, string[]>(keys.map((key) => [key, []]));
  const note = (key: string, where: string) => {
    const places = removedFrom.get(key);
    if (places && !places.includes(where)) places.push(where);
  };
  const parameters = use.parameters.filter((key) => {
    if (gone.has(key)) note(key, 'the analysed parameters');
    return !gone.has(key);
  });
  const { sizingParameter } = use.settings;
  if (sizingParameter !== null && gone.has(sizingParameter)) note(sizingParameter, 'the sizing proposal');
  const deviceFits = use.settings.deviceFits.map((fit) => ({
    ...fit,
    sizes: fit.sizes.flatMap((size) => {
      const ranges = size.ranges.filter((range) => {
        if (gone.has(range.parameter)) note(range.parameter, `size ${size.name} of ${fit.label}`);
        return !gone.has(range.parameter);
      });
      return ranges.length > 0 ? [{ ...size, ranges }] : [];
    }),
  }));
  const settings: AnalysisSettings = {
    ...use.settings,
    sizingParameter: sizingParameter !== null && gone.has(sizingParameter) ? null : sizingParameter,
    deviceFits,
  };
  return { parameters, settings, removedFrom };
}
