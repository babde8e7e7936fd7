// Spec §9: dates display as DD.MM.YYYY. Stored values are UTC ISO strings; they are shown in
// the viewer's time zone unless one is given (tests pin it).

type DateInput = string | number | Date;

function partsOf(input: DateInput, options: Intl.DateTimeFormatOptions): Map<string, string> | null {
  const date = input instanceof Date ? input : new Date(input);
  if (Number.isNaN(date.getTime())) return null;
  const parts = new Intl.DateTimeFormat('en-GB', { ...options, hourCycle: 'h23' }).formatToParts(date);
  return new Map(parts.map((part) => [part.type, part.value]));
}

/** A date as DD.MM.YYYY; an empty string for an invalid date. */
export function formatDate(input: DateInput, timeZone?: string): string {
  const parts = partsOf(input, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone });
  if (!parts) return '';
  return `${parts.get('day')}.${parts.get('month')}.${parts.get('year')}`;
}

/** A date and time as DD.MM.YYYY HH:mm (24 h); an empty string for an invalid date. */
export function formatDateTime(input: DateInput, timeZone?: string): string {
  const parts = partsOf(input, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
  });
  if (!parts) return '';
  return `${parts.get('day')}.${parts.get('month')}.${parts.get('year')} ${parts.get('hour')}:${parts.get('minute')}`;
}
