import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { TrialDetail } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { useTrialPopulation } from '../api';
import { outcomeText } from '../format';

/**
 * The population view of a trial on an SSM's named instances (issue 17; docs/decisions/trials-on-ssm-population.md):
 * the instances' mode scores and, per outcome, its summary over the instances, the extreme instances (with their
 * rooms), how many pass its criterion and Pearson's r with each moved mode's score. What the cohort analysis has and
 * shapes cannot (outliers, representativeness, population intervals) is said, not shown.
 */
export function TrialPopulation({ deviceId, trial }: { deviceId: string; trial: TrialDetail }) {
  const version = JSON.stringify([
    trial.counts,
    trial.acceptance,
    trial.outcomes.map((o) => o.key),
    trial.patients.map((p) => p.outcomeVersions),
  ]);
  const population = useTrialPopulation(deviceId, trial, version);
  const data = population.data?.instances;
  const roomOf = new Map(trial.patients.map((p) => [p.patientId, p.roomId]));
  const nameOf = new Map(data?.instances.map((i) => [i.id, i.name]));
  const instanceLink = (id: string, value: number) => {
    const roomId = roomOf.get(id);
    const name = nameOf.get(id) ?? id;
    return (
      <>
        {roomId ? (
          <Link
            component={RouterLink}
            to={`/projects/room?${new URLSearchParams({ project: trial.projectId, room: roomId, device: deviceId }).toString()}`}
          >
            {name}
          </Link>
        ) : (
          name
        )}{' '}
        ({outcomeText(value)})
      </>
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} component="section" aria-labelledby="trial-population-heading">
      <Typography variant="h6" component="h2" id="trial-population-heading">
        Population of the instances
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Synthetic shapes from the statistical shape model <strong>{trial.ssm?.name}</strong>, not patients: each
        instance is the model’s mean shape moved by the standard deviations named per mode.
      </Typography>
      <Alert severity="info" sx={{ mb: 2 }}>
        The population analysis works on cohorts. For shapes there are no outliers, no representativeness and no
        population intervals: the instances are shapes you chose from the model, not a sample of patients. Correlations
        with the mode scores need at least 3 instances with a value.
      </Alert>
      {population.error ? (
        <LoadFailure
          what="The population of the instances"
          error={population.error}
          retry={() => void population.mutate()}
        />
      ) : !data ? (
        <Loading what="the population of the instances" />
      ) : (
        <>
          <Typography variant="subtitle1" component="h3">
            Mode scores
          </Typography>
          {data.modes.length === 0 ? (
            <Typography sx={{ mb: 2 }}>Every instance is the mean shape: no mode is moved.</Typography>
          ) : (
            <TableContainer sx={{ mb: 2 }}>
              <Table size="small" aria-label="Mode scores of the instances" sx={{ maxWidth: 720 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>Instance</TableCell>
                    {data.modes.map((m) => (
                      <TableCell key={m} align="right">
                        Mode {m} (SD)
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.instances.map((i) => (
                    <TableRow key={i.id}>
                      <TableCell>{i.name}</TableCell>
                      {i.modeScores.map((score, k) => (
                        <TableCell key={data.modes[k]} align="right">
                          {score}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          <Typography variant="subtitle1" component="h3">
            Outcomes over the instances
          </Typography>
          <TableContainer>
            <Table size="small" aria-label="Outcomes over the instances">
              <TableHead>
                <TableRow>
                  <TableCell>Outcome</TableCell>
                  <TableCell align="right">n</TableCell>
                  <TableCell align="right">Mean</TableCell>
                  <TableCell align="right">SD</TableCell>
                  <TableCell align="right">Min</TableCell>
                  <TableCell align="right">Median</TableCell>
                  <TableCell align="right">Max</TableCell>
                  <TableCell>Lowest</TableCell>
                  <TableCell>Highest</TableCell>
                  <TableCell>Pass</TableCell>
                  {data.modes.map((m) => (
                    <TableCell key={m} align="right">
                      r with mode {m}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {data.outcomes.map((o) => {
                  const definition = trial.outcomes.find((d) => d.key === o.key);
                  const s = o.summary;
                  return (
                    <TableRow key={o.key} data-testid={`population-${o.key}`}>
                      <TableCell>
                        {definition ? `${definition.label} (${definition.unit})` : o.key}
                        {o.missing > 0 && (
                          <Typography variant="caption" display="block" color="text.secondary">
                            {o.missing} without a value
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell align="right">{s?.n ?? 0}</TableCell>
                      <TableCell align="right">{outcomeText(s?.mean)}</TableCell>
                      <TableCell align="right">{outcomeText(s?.sd)}</TableCell>
                      <TableCell align="right">{outcomeText(s?.min)}</TableCell>
                      <TableCell align="right">{outcomeText(s?.median)}</TableCell>
                      <TableCell align="right">{outcomeText(s?.max)}</TableCell>
                      <TableCell>{o.lowest ? instanceLink(o.lowest.id, o.lowest.value) : '—'}</TableCell>
                      <TableCell>{o.highest ? instanceLink(o.highest.id, o.highest.value) : '—'}</TableCell>
                      <TableCell>{o.pass ? `${o.pass.count} of ${o.pass.n}` : '—'}</TableCell>
                      {o.modeCorrelations.map((r, k) => (
                        <TableCell key={data.modes[k]} align="right">
                          {r === null ? '—' : r.toFixed(2)}
                        </TableCell>
                      ))}
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Paper>
  );
}
