import useSWR from 'swr';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { fetchColumns } from '../api';
import { capturedParticles, countAt, fillTemplate, type ResultManifest } from '../resultData';

/** Rows listed at most (the 3D view coloured by "Captured" shows them all). */
const listed = 100;

/**
 * Capture locations of the particle kind (issue 16 item 5): the tracked particles captured by the last saved
 * timestep, with where they were captured (mm, patient frame).
 */
export function CaptureLocations({
  manifest,
  frameUrlTemplate,
}: {
  manifest: ResultManifest;
  frameUrlTemplate: string;
}) {
  const object = manifest.objects.find((o) => o.kind === 'particles');
  const last = manifest.timesteps.length - 1;
  const captured = useSWR(object && last >= 0 ? ['captures', frameUrlTemplate, object.name, last] : null, async () => {
    const count = countAt(manifest, object!, last);
    const url = fillTemplate(frameUrlTemplate, { object: object!.name, timestep: last });
    return {
      count,
      rows: capturedParticles(await fetchColumns(url, object!, count, ['particle_id', 'position', 'captured']), count),
    };
  });
  if (!object) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Capture locations">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Capture locations
      </Typography>
      {captured.error ? (
        <Alert severity="error">The capture locations could not be loaded. {captured.error.message}</Alert>
      ) : !captured.data ? (
        <Typography color="text.secondary">Loading the capture locations…</Typography>
      ) : (
        <>
          <Typography sx={{ mb: 1 }}>
            {captured.data.rows.length} of {captured.data.count} particles captured by timestep {last + 1}.
          </Typography>
          {captured.data.rows.length > 0 && (
            <Table size="small" aria-label="Captured particles">
              <TableHead>
                <TableRow>
                  <TableCell>Particle</TableCell>
                  <TableCell align="right">x (mm)</TableCell>
                  <TableCell align="right">y (mm)</TableCell>
                  <TableCell align="right">z (mm)</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {captured.data.rows.slice(0, listed).map((row) => (
                  <TableRow key={row.particle}>
                    <TableCell>{row.particle}</TableCell>
                    {row.position.map((v, k) => (
                      <TableCell key={k} align="right">
                        {v.toFixed(2)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </>
      )}
    </Paper>
  );
}
