const DAY_MS = 86_400_000;

function shiftYmd(ymd: string, days: number): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(ymd);
  if (!m) return undefined;
  const time = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const check = new Date(time);
  if (check.getUTCMonth() !== Number(m[2]) - 1 || check.getUTCDate() !== Number(m[3])) return undefined;
  const shifted = new Date(time + days * DAY_MS);
  const y = shifted.getUTCFullYear();
  if (y < 1 || y > 9999) return undefined;
  return `${String(y).padStart(4, '0')}${String(shifted.getUTCMonth() + 1).padStart(2, '0')}${String(shifted.getUTCDate()).padStart(2, '0')}`;
}

/**
 * Shifts each date of a DA value (values split by "\", ranges by "-") by whole days. Undefined when any part is
 * not a valid date: the caller then removes the value rather than keep what it cannot shift.
 */
export function shiftDa(value: string, days: number): string | undefined {
  const out: string[] = [];
  for (const single of value.split('\\')) {
    const parts = single.split('-').map((p) => (p === '' ? '' : shiftYmd(p.trim(), days)));
    if (parts.some((p) => p === undefined)) return undefined;
    out.push(parts.join('-'));
  }
  return out.join('\\');
}

/** Shifts the date part of each DT value (YYYYMMDD…); a DT of less than a full date cannot be shifted (undefined). */
export function shiftDt(value: string, days: number): string | undefined {
  const out: string[] = [];
  for (const single of value.split('\\')) {
    const m = /^(\d{8})(\d{0,6}(?:\.\d{1,6})?)?([+-]\d{4})?$/.exec(single.trim());
    if (!m?.[1]) return undefined;
    const date = shiftYmd(m[1], days);
    if (!date) return undefined;
    out.push(`${date}${m[2] ?? ''}${m[3] ?? ''}`);
  }
  return out.join('\\');
}
