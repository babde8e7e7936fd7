import type { AnalyticsReport } from '@insilico/contracts/analytics';

const barWidth = 30;

/**
 * The operator's analytics report as text: per UTC day active users and events by type with a bar, then the funnel and
 * the events and users per feature.
 */
export function formatAnalyticsReport(report: AnalyticsReport): string {
  const lines = [`Analytics from ${report.from} to ${report.to} (UTC days)`];
  if (report.days.length === 0) lines.push('No events in this period.');
  else {
    const totals = report.days.map((day) => Object.values(day.events).reduce((sum, n) => sum + n, 0));
    const most = Math.max(...totals, 1);
    lines.push('day         users  events');
    report.days.forEach((day, index) => {
      const total = totals[index]!;
      const bar = '#'.repeat(Math.max(1, Math.round((total / most) * barWidth)));
      const types = Object.entries(day.events)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([type, n]) => `${type} ${n}`)
        .join(', ');
      lines.push(`${day.day}  ${String(day.activeUsers).padStart(5)}  ${String(total).padStart(6)}  ${bar}  ${types}`);
    });
  }
  lines.push('Funnel (users who reached each step in order):');
  const first = report.funnel[0]?.users ?? 0;
  for (const { step, users } of report.funnel) {
    const share = first > 0 ? ` ${String(Math.round((users / first) * 100)).padStart(3)} %` : '';
    lines.push(`  ${step.padEnd(20)} ${String(users).padStart(5)}${share}`);
  }
  if (report.features.length > 0) {
    lines.push('Per feature (events, users):');
    for (const { eventType, events, users } of report.features)
      lines.push(`  ${eventType.padEnd(22)} ${String(events).padStart(6)} ${String(users).padStart(5)}`);
  }
  return lines.join('\n');
}
