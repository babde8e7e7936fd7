import type { AnalysisParameter } from '@insilico/contracts';

/** A number for a table cell: the parameter's decimals, '–' when missing, ±∞ spelled out. */
export function formatValue(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  return value.toLocaleString('en-GB', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A value rounded as `formatValue` shows it, as a number (CSV exports hold what the page shows, issue 14). */
export function roundTo(value: number, decimals: number): number {
  return Number.isFinite(value) ? Number(value.toFixed(decimals)) : value;
}

/** A fraction 0–1 as a percentage with one decimal. */
export function formatPercent(fraction: number): string {
  return `${formatValue(fraction * 100, 1)} %`;
}

/** A p-value: scientific below 0.001, so 1e-12 and 0.0009 stay readable. */
export function formatPValue(p: number): string {
  if (Number.isNaN(p)) return '–';
  return p < 0.001 ? p.toExponential(2) : p.toFixed(4);
}

/** A p-value rounded as `formatPValue` shows it (three significant digits below 0.001, else four decimals). */
export function roundPValue(p: number): number {
  if (!Number.isFinite(p)) return p;
  return p < 0.001 ? Number(p.toPrecision(3)) : roundTo(p, 4);
}

/** "Aortic annulus perimeter (mm)". */
export function parameterLabel(parameter: AnalysisParameter | undefined, key = ''): string {
  return parameter ? `${parameter.label} (${parameter.unit})` : key;
}
