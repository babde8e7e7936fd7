import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AnalyticsReport } from '@insilico/contracts/analytics';
import { Page } from '../../../components/Page';
import { formatDateTime } from '../../../lib/formatDate';
import type { ApiError } from '../../../lib/apiError';
import { DailyEventsChart } from './DailyEventsChart';
import { analyticsPeriods, useAnalyticsEvents, useAnalyticsReport } from './api';

function Loading({ what }: { what: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={22} aria-hidden="true" />
      <Typography color="text.secondary">{`Loading ${what}…`}</Typography>
    </Stack>
  );
}

function Failure({ error, what, retry }: { error: ApiError; what: string; retry: () => void }) {
  if (error.status === 403) return <Alert severity="warning">{error.message}</Alert>;
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={retry}>
          Try again
        </Button>
      }
    >
      {`${what} could not be loaded. ${error.message}`}
    </Alert>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2.5, mb: 3, borderRadius: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function ReportSections({ report }: { report: AnalyticsReport }) {
  const total = report.days.reduce((sum, day) => sum + Object.values(day.events).reduce((a, b) => a + b, 0), 0);
  const first = report.funnel[0]?.users ?? 0;
  return (
    <>
      <Section title="Events per day">
        {report.days.length === 0 ? (
          <Typography color="text.secondary">No events in this period.</Typography>
        ) : (
          <>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {`${total} events from ${report.from} to ${report.to} (UTC days). Bars: events; dots: active users.`}
            </Typography>
            <DailyEventsChart report={report} />
            <TableContainer sx={{ mt: 2, maxHeight: 280 }}>
              <Table size="small" aria-label="Events and active users per day" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>Day</TableCell>
                    <TableCell align="right">Active users</TableCell>
                    <TableCell align="right">Events</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.days.map((day) => (
                    <TableRow key={day.day}>
                      <TableCell>{day.day}</TableCell>
                      <TableCell align="right">{day.activeUsers}</TableCell>
                      <TableCell align="right">{Object.values(day.events).reduce((a, b) => a + b, 0)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        )}
      </Section>
      <Section title="Funnel: from workspace to first completed simulation">
        <Table size="small" aria-label="Funnel">
          <TableHead>
            <TableRow>
              <TableCell>Step</TableCell>
              <TableCell align="right">Users</TableCell>
              <TableCell sx={{ width: '40%' }}>Share of the first step</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.funnel.map(({ step, users }) => {
              const share = first > 0 ? Math.round((users / first) * 100) : 0;
              return (
                <TableRow key={step}>
                  <TableCell>{step}</TableCell>
                  <TableCell align="right">{users}</TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <LinearProgress
                        variant="determinate"
                        value={share}
                        sx={{ flex: 1, height: 8, borderRadius: 4 }}
                        aria-label={`${step}: ${share} %`}
                      />
                      <Typography variant="body2" sx={{ minWidth: 44, textAlign: 'right' }}>
                        {first > 0 ? `${share} %` : '–'}
                      </Typography>
                    </Stack>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Section>
      <Section title="Per feature">
        {report.features.length === 0 ? (
          <Typography color="text.secondary">No events in this period.</Typography>
        ) : (
          <Table size="small" aria-label="Events per feature">
            <TableHead>
              <TableRow>
                <TableCell>Event</TableCell>
                <TableCell align="right">Events</TableCell>
                <TableCell align="right">Users</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.features.map((feature) => (
                <TableRow key={feature.eventType}>
                  <TableCell>{feature.eventType}</TableCell>
                  <TableCell align="right">{feature.events}</TableCell>
                  <TableCell align="right">{feature.users}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>
    </>
  );
}

function ReceivedEvents({
  eventTypes,
  eventType,
  onEventType,
}: {
  eventTypes: string[];
  eventType: string;
  onEventType: (value: string) => void;
}) {
  const events = useAnalyticsEvents(eventType);
  let body;
  if (events.error && events.items.length === 0)
    body = <Failure error={events.error} what="The received events" retry={events.retry} />;
  else if (events.isLoading) body = <Loading what="the received events" />;
  else if (events.items.length === 0)
    body = (
      <Typography color="text.secondary">
        {eventType ? 'No events of this type were received.' : 'No events were received yet.'}
      </Typography>
    );
  else
    body = (
      <>
        <TableContainer>
          <Table size="small" aria-label="Received events">
            <TableHead>
              <TableRow>
                <TableCell>Time</TableCell>
                <TableCell>Event</TableCell>
                <TableCell>User</TableCell>
                <TableCell>Device id</TableCell>
                <TableCell>Properties</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {events.items.map((item) => (
                <TableRow key={item.id} data-testid="analytics-event">
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={item.occurredAt}>{formatDateTime(item.occurredAt)}</time>
                  </TableCell>
                  <TableCell>{item.eventType}</TableCell>
                  <TableCell>{item.userEmail}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', fontSize: 12 }}>{item.deviceId}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}>
                    {Object.keys(item.properties).length === 0 ? '–' : JSON.stringify(item.properties)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {events.error && <Failure error={events.error} what="More events" retry={events.retry} />}
        {events.hasMore && (
          <Button sx={{ mt: 2 }} onClick={events.loadMore} disabled={events.isLoadingMore}>
            {events.isLoadingMore ? 'Loading…' : 'Show older events'}
          </Button>
        )}
      </>
    );
  return (
    <Section title="Received events">
      <TextField
        select
        size="small"
        label="Event"
        value={eventType}
        onChange={(event) => onEventType(event.target.value)}
        sx={{ minWidth: 220, mb: 2 }}
      >
        <MenuItem value="">All events</MenuItem>
        {eventTypes.map((type) => (
          <MenuItem key={type} value={type}>
            {type}
          </MenuItem>
        ))}
      </TextField>
      {body}
    </Section>
  );
}

/**
 * `/analytics` (issue 21 item 6): the product analytics this server received, for operators only (the server
 * answers 403 to anybody else): events per day with a chart, the funnel from workspace to first completed
 * simulation, events per feature, and the received events a page at a time. Period and event filter live in the
 * address.
 */
export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const given = Number(params.get('days'));
  const days = analyticsPeriods.find((period) => period === given) ?? 30;
  const eventType = params.get('event') ?? '';
  const report = useAnalyticsReport(days);
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  let body;
  if (report.error && !report.data)
    body = <Failure error={report.error} what="The analytics" retry={() => void report.mutate()} />;
  else if (!report.data) body = <Loading what="the analytics" />;
  else
    body = (
      <>
        <ReportSections report={report.data} />
        <ReceivedEvents
          eventTypes={report.data.features.map((feature) => feature.eventType)}
          eventType={eventType}
          onEventType={(value) => setParam('event', value)}
        />
      </>
    );

  return (
    <Page
      title="Product analytics"
      section="Operator"
      description="What people do in the workspace, from the events this server received with their consent."
      actions={
        <TextField
          select
          size="small"
          label="Period"
          value={String(days)}
          onChange={(event) => setParam('days', event.target.value === '30' ? '' : event.target.value)}
          sx={{ minWidth: 160 }}
        >
          {analyticsPeriods.map((period) => (
            <MenuItem key={period} value={String(period)}>
              {`Last ${period} days`}
            </MenuItem>
          ))}
        </TextField>
      }
    >
      <Box>{body}</Box>
    </Page>
  );
}
