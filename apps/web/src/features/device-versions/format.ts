/** How device-version pages write sizes and measures (fixed formats, not the locale's, as elsewhere in the app). */

/** 1536 → "1.5 KB" (binary units: what file pickers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`;
}

/** A length, area or volume with up to 4 significant digits and thousands separators: 12345.6 → "12,346". */
export function formatMeasure(value: number): string {
  const rounded = Number(value.toPrecision(4));
  const [whole, fraction] = String(Math.abs(rounded)).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${rounded < 0 ? '−' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
