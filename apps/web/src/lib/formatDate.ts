// Spec §9: dates display as DD.MM.YYYY. Stored values are UTC ISO strings; they are shown in
// the viewer's time zone unless one is given (tests pin it).

type DateInput = string | number | Date;

type Shape = 'date' | 'dateTime';

const shapes: Record<Shape, Intl.DateTimeFormatOptions> = {
  date: { day: '2-digit', month: '2-digit', year: 'numeric' },
  dateTime: { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' },
};

// Building an Intl.DateTimeFormat costs about a millisecond, formatting with one microseconds: a list of a hundred
// dates would spend most of its drawing time here (measured on the projects overview). One per shape and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(shape: Shape, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${shape} ${timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { ...shapes[shape], timeZone, hourCycle: 'h23' });
    formatters.set(key, formatter);
  }
  return formatter;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

function partsOf(input: DateInput, shape: Shape, timeZone: string | undefined): Map<string, string> | null {
  const date = input instanceof Date ? input : new Date(input);
  if (Number.isNaN(date.getTime())) return null;
  // The viewer's own zone needs no Intl at all (the first formatter of a page costs tens of ms to set up).
  if (timeZone === undefined)
    return new Map([
      ['day', twoDigits(date.getDate())],
      ['month', twoDigits(date.getMonth() + 1)],
      ['year', String(date.getFullYear()).padStart(4, '0')],
      ['hour', twoDigits(date.getHours())],
      ['minute', twoDigits(date.getMinutes())],
    ]);
  const parts = formatterOf(shape, timeZone).formatToParts(date);
  return new Map(parts.map((part) => [part.type, part.value]));
}

/** A date as DD.MM.YYYY; an empty string for an invalid date. */
export function formatDate(input: DateInput, timeZone?: string): string {
  const parts = partsOf(input, 'date', timeZone);
  if (!parts) return '';
  return `${parts.get('day')}.${parts.get('month')}.${parts.get('year')}`;
}

/** A date and time as DD.MM.YYYY HH:mm (24 h); an empty string for an invalid date. */
export function formatDateTime(input: DateInput, timeZone?: string): string {
  const parts = partsOf(input, 'dateTime', timeZone);
  if (!parts) return '';
  return `${parts.get('day')}.${parts.get('month')}.${parts.get('year')} ${parts.get('hour')}:${parts.get('minute')}`;
}
