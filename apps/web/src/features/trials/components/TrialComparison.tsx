import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  comparableOutcomes,
  compareOutcome,
  criterionText,
  meetsCriterion,
  outcomeValues,
  verdictChanges,
  type TrialCriterion,
  type TrialDetail,
} from '@insilico/contracts';
import { kernelDensity, wilsonInterval } from '@insilico/stats';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { ChartCard, type ChartOption } from '../../analysis';
import { useTrial } from '../api';
import { outcomeText } from '../format';

const colours = ['#7a8ca3', '#2f6fb5'] as const;

/**
 * Device CI: this trial's outcomes next to those of the trial it re-runs — the distribution of the chosen outcome on
 * each version, the pass fraction under the trial's acceptance criterion on each, the patients whose verdict changed
 * (pass → fail first), and each patient's two values with the difference.
 */
export function TrialComparison({ deviceId, trial }: { deviceId: string; trial: TrialDetail }) {
  const base = useTrial(deviceId, trial.projectId, trial.basedOnTrialId);
  const [outcome, setOutcome] = useState(trial.outcomes[0]?.key ?? '');
  const comparable = base.data ? comparableOutcomes(base.data, trial) : { outcomes: trial.outcomes, differing: [] };
  const definition = comparable.outcomes.find((o) => o.key === outcome);
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
      <Typography variant="h6" component="h2">
        Compared with the earlier version
      </Typography>
      {base.error ? (
        <LoadFailure what="The trial it re-runs" error={base.error} retry={() => void base.mutate()} />
      ) : !base.data ? (
        <Loading what="the trial it re-runs" />
      ) : (
        <>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {base.data.name} ({base.data.deviceVersion.name}) → {trial.name} ({trial.deviceVersion.name})
          </Typography>
          <TextField select size="small" label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
            {comparable.outcomes.map((o) => (
              <MenuItem key={o.key} value={o.key}>
                {o.label} ({o.unit})
              </MenuItem>
            ))}
          </TextField>
          {comparable.differing.length > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Not compared, defined differently in the two trials: {comparable.differing.join(', ')}.
            </Typography>
          )}
          {definition && (
            <>
              <Box sx={{ mt: 2 }}>
                <DistributionChart
                  base={base.data}
                  trial={trial}
                  outcome={outcome}
                  label={`${definition.label} (${definition.unit})`}
                  criterion={trial.acceptance[outcome]}
                />
              </Box>
              <Verdicts
                base={base.data}
                trial={trial}
                outcome={outcome}
                unit={definition.unit}
                criterion={trial.acceptance[outcome]}
              />
              <ComparisonTable base={base.data} trial={trial} outcome={outcome} unit={definition.unit} />
            </>
          )}
        </>
      )}
    </Paper>
  );
}

/** Kernel density (Scott) of each version's values with the values themselves as a rug, and the criterion's bounds. */
function DistributionChart(props: {
  base: TrialDetail;
  trial: TrialDetail;
  outcome: string;
  label: string;
  criterion: TrialCriterion | undefined;
}) {
  const { base, trial, outcome, label, criterion } = props;
  const versions = useMemo(
    () =>
      [base, trial].map((t) => ({ name: `${t.deviceVersion.name} (${t.name})`, values: outcomeValues(t, outcome) })),
    [base, trial, outcome],
  );
  const option: ChartOption = useMemo(() => {
    const all = versions.flatMap((v) => v.values);
    const lo = Math.min(...all);
    const hi = Math.max(...all);
    const pad = hi > lo ? 0.25 * (hi - lo) : Math.abs(lo) * 0.1 || 1;
    const densities = versions.map((v) => {
      const distinct = new Set(v.values).size;
      if (distinct < 2) return [];
      const curve = kernelDensity(v.values, { points: 128, from: lo - pad, to: hi + pad });
      return Array.from(curve.x, (x, i) => [x, curve.density[i] ?? 0]);
    });
    const bounds = [criterion?.min, criterion?.max].filter((b): b is number => b !== null && b !== undefined);
    return {
      grid: { left: 64, right: 24, top: 40, bottom: 48 },
      legend: { top: 0 },
      tooltip: { trigger: 'item' },
      xAxis: { type: 'value', name: label, nameLocation: 'middle', nameGap: 28, min: lo - pad, max: hi + pad },
      yAxis: { type: 'value', name: 'Probability density' },
      series: versions.flatMap((v, k) => [
        {
          type: 'line',
          name: v.name,
          showSymbol: false,
          color: colours[k],
          lineStyle: { type: k === 0 ? 'dashed' : 'solid' },
          data: densities[k],
          ...(k === 1 && bounds.length
            ? {
                markLine: {
                  symbol: 'none',
                  lineStyle: { color: '#c62828' },
                  data: bounds.map((b) => ({ xAxis: b, label: { formatter: `criterion ${b}` } })),
                },
              }
            : {}),
        },
        {
          type: 'scatter',
          name: v.name,
          color: colours[k],
          symbol: k === 0 ? 'diamond' : 'circle',
          symbolSize: 9,
          // The rug: each patient's value, the earlier version a little below the later one.
          data: v.values.map((x) => [x, 0]),
          symbolOffset: [0, k === 0 ? 6 : -6],
        },
      ]),
    };
  }, [versions, label, criterion]);
  const empty = versions.every((v) => v.values.length === 0);
  return (
    <ChartCard
      title={`Distribution of ${label} per device version`}
      fileName={`trial-${outcome}-distribution`}
      option={option}
      empty={empty}
      height={300}
    />
  );
}

/** A patient as the tables name it: the cohort's patient id, or an SSM instance's name (its key is its room). */
function patientName(trial: TrialDetail, patientId: string): string {
  return trial.patients.find((p) => p.patientId === patientId)?.instance?.name ?? patientId;
}

/** The pass fraction on each version (95 % Wilson interval) and the patients whose verdict changed. */
function Verdicts(props: {
  base: TrialDetail;
  trial: TrialDetail;
  outcome: string;
  unit: string;
  criterion: TrialCriterion | undefined;
}) {
  const { base, trial, outcome, unit, criterion } = props;
  if (!criterion)
    return (
      <Alert severity="info" sx={{ mt: 2 }}>
        Set an acceptance criterion for this outcome (Acceptance criteria, above) to see which patients changed from
        pass to fail.
      </Alert>
    );
  const changes = verdictChanges(base, trial, outcome, criterion);
  const fraction = (t: TrialDetail) => {
    const values = outcomeValues(t, outcome);
    if (values.length === 0) return 'no values yet';
    const passed = values.filter((v) => meetsCriterion(v, criterion)).length;
    const w = wilsonInterval(passed, values.length);
    const pct = (f: number) => `${(100 * f).toFixed(0)} %`;
    return `${passed} of ${values.length} pass (${pct(w.fraction)}, 95 % interval ${pct(w.lower)}–${pct(w.upper)})`;
  };
  const regressions = changes.filter((c) => c.change === 'pass → fail').length;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3">
        Pass and fail under {criterionText(criterion, unit)}
      </Typography>
      <Typography>
        {base.deviceVersion.name}: {fraction(base)} · {trial.deviceVersion.name}: {fraction(trial)}
      </Typography>
      <Typography sx={{ mt: 1 }} data-testid="pass-fail-summary">
        {regressions === 0
          ? 'No patient that passed on the earlier version fails on this one.'
          : `${regressions} ${regressions === 1 ? 'patient passed' : 'patients passed'} on the earlier version and ${regressions === 1 ? 'fails' : 'fail'} on this one.`}
      </Typography>
      {changes.length > 0 && (
        <Table size="small" aria-label="Patients whose verdict changed" sx={{ mt: 1, maxWidth: 640 }}>
          <TableHead>
            <TableRow>
              <TableCell>Patient</TableCell>
              <TableCell>Change</TableCell>
              <TableCell align="right">
                {base.deviceVersion.name} ({unit})
              </TableCell>
              <TableCell align="right">
                {trial.deviceVersion.name} ({unit})
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.map((c) => (
              <TableRow key={c.patientId}>
                <TableCell>{patientName(trial, c.patientId)}</TableCell>
                <TableCell sx={{ color: c.change === 'pass → fail' ? 'error.main' : 'success.main' }}>
                  {c.change}
                </TableCell>
                <TableCell align="right">{outcomeText(c.base)}</TableCell>
                <TableCell align="right">{outcomeText(c.current)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

function ComparisonTable(props: { base: TrialDetail; trial: TrialDetail; outcome: string; unit: string }) {
  const { patients, meanDifference, paired } = compareOutcome(props.base, props.trial, props.outcome);
  return (
    <Table size="small" aria-label="Outcome per patient, both versions" sx={{ mt: 2 }}>
      <TableHead>
        <TableRow>
          <TableCell>Patient</TableCell>
          <TableCell align="right">
            {props.base.deviceVersion.name} ({props.unit})
          </TableCell>
          <TableCell align="right">
            {props.trial.deviceVersion.name} ({props.unit})
          </TableCell>
          <TableCell align="right">Difference ({props.unit})</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {patients.map((p) => (
          <TableRow key={p.patientId}>
            <TableCell>{patientName(props.trial, p.patientId)}</TableCell>
            <TableCell align="right">{outcomeText(p.base)}</TableCell>
            <TableCell align="right">{outcomeText(p.current)}</TableCell>
            <TableCell align="right">{outcomeText(p.difference)}</TableCell>
          </TableRow>
        ))}
        <TableRow>
          <TableCell colSpan={3}>
            <strong>Mean difference</strong> over {paired} {paired === 1 ? 'patient' : 'patients'} with both values
          </TableCell>
          <TableCell align="right">
            <strong>{outcomeText(meanDifference)}</strong>
          </TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}
