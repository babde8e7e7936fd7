import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './formatDate';

describe('formatDate', () => {
  it('shows DD.MM.YYYY with leading zeros', () => {
    expect(formatDate('2026-03-05T12:00:00Z', 'UTC')).toBe('05.03.2026');
    expect(formatDate(new Date(Date.UTC(1999, 11, 31, 8)), 'UTC')).toBe('31.12.1999');
  });

  it('uses the given time zone for the calendar day', () => {
    expect(formatDate('2026-01-31T23:30:00Z', 'UTC')).toBe('31.01.2026');
    expect(formatDate('2026-01-31T23:30:00Z', 'Europe/Berlin')).toBe('01.02.2026');
  });

  it('accepts epoch milliseconds', () => {
    expect(formatDate(0, 'UTC')).toBe('01.01.1970');
  });

  it('shows the viewer’s own calendar day when no zone is given (the app’s case), as Intl would', () => {
    for (const iso of ['2026-01-31T23:30:00Z', '2026-07-04T00:07:00Z', '1999-12-31T08:00:00Z']) {
      const viewer = Intl.DateTimeFormat().resolvedOptions().timeZone;
      expect(formatDate(iso)).toBe(formatDate(iso, viewer));
      expect(formatDateTime(iso)).toBe(formatDateTime(iso, viewer));
    }
  });

  it('answers an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('shows DD.MM.YYYY HH:mm in 24-hour time', () => {
    expect(formatDateTime('2026-07-04T21:05:00Z', 'UTC')).toBe('04.07.2026 21:05');
    expect(formatDateTime('2026-07-04T00:07:00Z', 'UTC')).toBe('04.07.2026 00:07');
  });
});
