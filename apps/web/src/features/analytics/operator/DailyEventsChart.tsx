import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import type { AnalyticsReport } from '@insilico/contracts/analytics';

const width = 720;
const height = 220;
const margin = { top: 12, right: 12, bottom: 28, left: 40 };

/** Every UTC day of the period, from `from` to `to` inclusive (`YYYY-MM-DD`), days without events included. */
export function periodDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += 86_400_000)
    days.push(new Date(time).toISOString().slice(0, 10));
  return days;
}

/** A round upper end of the axis (1, 2 or 5 times a power of ten) at or above the largest value. */
export function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

/**
 * Events per UTC day as bars, with the active users as a line of dots: an SVG drawn here (no chart library on the
 * operator page). The numbers are in the table beside it for screen readers and keyboard users.
 */
export function DailyEventsChart({ report }: { report: AnalyticsReport }) {
  const theme = useTheme();
  const byDay = new Map(report.days.map((day) => [day.day, day]));
  const days = periodDays(report.from, report.to);
  const totals = days.map((day) => Object.values(byDay.get(day)?.events ?? {}).reduce((sum, n) => sum + n, 0));
  const users = days.map((day) => byDay.get(day)?.activeUsers ?? 0);
  const top = niceMax(Math.max(...totals, ...users));
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const step = plotWidth / Math.max(days.length, 1);
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <Box
      component="svg"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`Events per day from ${report.from} to ${report.to}: ${totals.reduce((a, b) => a + b, 0)} events`}
      sx={{ width: '100%', height: 'auto', display: 'block' }}
      data-testid="analytics-chart"
    >
      {[0, top / 2, top].map((tick) => (
        <g key={tick}>
          <line x1={margin.left} x2={width - margin.right} y1={y(tick)} y2={y(tick)} stroke={theme.palette.divider} />
          <text x={margin.left - 6} y={y(tick) + 4} textAnchor="end" fontSize="11" fill={theme.palette.text.secondary}>
            {tick}
          </text>
        </g>
      ))}
      {days.map((day, index) => (
        <g key={day}>
          <rect
            x={margin.left + index * step + step * 0.15}
            width={step * 0.7}
            y={y(totals[index]!)}
            height={plotHeight - (y(totals[index]!) - margin.top)}
            fill={theme.palette.primary.main}
          >
            <title>{`${day}: ${totals[index]} events, ${users[index]} active users`}</title>
          </rect>
          {users[index]! > 0 && (
            <circle
              cx={margin.left + (index + 0.5) * step}
              cy={y(users[index]!)}
              r={3}
              fill={theme.palette.secondary.main}
            />
          )}
          {index % labelEvery === 0 && (
            <text
              x={margin.left + (index + 0.5) * step}
              y={height - 8}
              textAnchor="middle"
              fontSize="11"
              fill={theme.palette.text.secondary}
            >
              {day.slice(5)}
            </text>
          )}
        </g>
      ))}
    </Box>
  );
}
