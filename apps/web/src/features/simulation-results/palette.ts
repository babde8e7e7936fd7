/**
 * Line colours (spec §9 "Graph widgets"): a 25-colour palette by series index, then generated gradient shades of
 * the same colours (index 25 is a lighter shade of colour 0, index 50 a darker one, and so on).
 */
export const seriesPalette: readonly string[] = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#3182bd',
  '#e6550d',
  '#31a354',
  '#756bb1',
  '#636363',
  '#6baed6',
  '#fd8d3c',
  '#74c476',
  '#9e9ac8',
  '#e7969c',
];

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex([r, g, b]: readonly number[]): string {
  return `#${[r, g, b].map((c) => Math.round(c!).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The colour of series `index`. Beyond the palette, round k = ⌊index / 25⌋ mixes the base colour towards white
 * (odd k) or black (even k), 20 % more every second round, up to 80 %: distinct shades of the same hue.
 */
export function seriesColor(index: number): string {
  const i = Math.max(0, Math.trunc(index));
  const base = seriesPalette[i % seriesPalette.length]!;
  const round = Math.floor(i / seriesPalette.length);
  if (round === 0) return base;
  const amount = Math.min(0.8, 0.2 * Math.ceil(round / 2));
  const target = round % 2 === 1 ? 255 : 0;
  return toHex(channels(base).map((c) => c + (target - c) * amount));
}

/** The colour of the 'average' series: dark, as it summarises the others. */
export const averageColor = '#212121';
