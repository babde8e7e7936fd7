import { describe, expect, it } from 'vitest';
import { formatAnalyticsReport } from './analytics-report';

describe('formatAnalyticsReport', () => {
  it('writes a line per day with users, events, a bar scaled to the busiest day and the counts by type, then the funnel', () => {
    const text = formatAnalyticsReport({
      from: '2026-03-01',
      to: '2026-03-02',
      days: [
        { day: '2026-03-01', activeUsers: 2, events: { 'signed in': 2, 'project created': 1 } },
        { day: '2026-03-02', activeUsers: 3, events: { 'signed in': 6 } },
      ],
      funnel: [
        { step: 'workspace created', users: 4 },
        { step: 'project created', users: 1 },
      ],
      features: [
        { eventType: 'signed in', events: 8, users: 3 },
        { eventType: 'project created', events: 1, users: 1 },
      ],
    });
    expect(text.split('\n')).toEqual([
      'Analytics from 2026-03-01 to 2026-03-02 (UTC days)',
      'day         users  events',
      `2026-03-01      2       3  ${'#'.repeat(15)}  project created 1, signed in 2`,
      `2026-03-02      3       6  ${'#'.repeat(30)}  signed in 6`,
      'Funnel (users who reached each step in order):',
      '  workspace created        4 100 %',
      '  project created          1  25 %',
      'Per feature (events, users):',
      '  signed in                   8     3',
      '  project created             1     1',
    ]);
  });

  it('says when there is nothing', () => {
    expect(
      formatAnalyticsReport({
        from: 'a',
        to: 'b',
        days: [],
        funnel: [{ step: 'workspace created', users: 0 }],
        features: [],
      }),
    ).toBe(
      [
        'Analytics from a to b (UTC days)',
        'No events in this period.',
        'Funnel (users who reached each step in order):',
        '  workspace created        0',
      ].join('\n'),
    );
  });
});
