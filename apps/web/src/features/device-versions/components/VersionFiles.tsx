import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import type { DeviceVersionFile } from '@insilico/contracts';
import { formatBytes, formatCount, formatMeasure } from '../format';

const size = (file: DeviceVersionFile) =>
  file.metrics ? file.metrics.boundingBox.size.map(formatMeasure).join(' × ') : '—';

/** What processing says about a file: its measures, or why it was refused. */
function Outcome({ file }: { file: DeviceVersionFile }) {
  if (file.status === 'refused')
    return (
      <Typography variant="body2" color="error">
        {file.refusal?.message}
      </Typography>
    );
  if (file.status === 'pending' || !file.metrics)
    return (
      <Typography variant="body2" color="text.secondary">
        Waiting to be checked…
      </Typography>
    );
  const m = file.metrics;
  return (
    <Stack spacing={0.5}>
      <Typography variant="body2">
        {formatCount(m.triangleCount)} triangles · {file.format === 'ascii' ? 'ASCII' : 'binary'} STL
      </Typography>
      <Typography variant="body2">Size {size(file)} mm</Typography>
      <Typography variant="body2">Surface area {formatMeasure(m.surfaceArea_mm2)} mm²</Typography>
      <Typography variant="body2">
        {m.volume_mm3 === null ? 'Volume — (the surface is not closed)' : `Volume ${formatMeasure(m.volume_mm3)} mm³`}
      </Typography>
      <Typography variant="body2">{m.watertight ? 'Watertight' : 'Not watertight'}</Typography>
      {file.findings.map((finding) => (
        <Alert key={finding.code} severity="info" sx={{ py: 0 }}>
          {finding.message}
        </Alert>
      ))}
    </Stack>
  );
}

/** The files of a version: preview, name, size, metrics or refusal reason, download. */
export function VersionFiles({ files, versionName }: { files: readonly DeviceVersionFile[]; versionName: string }) {
  return (
    <TableContainer>
      <Table size="small" aria-label={`Files of ${versionName}`}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 96 }}>Preview</TableCell>
            <TableCell>File</TableCell>
            <TableCell>Check and measures</TableCell>
            <TableCell align="right">Download</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {files.map((file) => (
            <TableRow key={file.id} sx={{ verticalAlign: 'top' }}>
              <TableCell>
                <Box
                  sx={{ width: 80, height: 80, bgcolor: 'action.hover', borderRadius: 1, overflow: 'hidden' }}
                  aria-hidden={file.previewUrl ? undefined : 'true'}
                >
                  {file.previewUrl && (
                    <img
                      src={file.previewUrl}
                      alt={`Preview of ${file.fileName}`}
                      width={80}
                      height={80}
                      loading="lazy"
                    />
                  )}
                </Box>
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-all' }}>
                <Typography variant="body2" sx={{ fontWeight: 700 }}>
                  {file.fileName}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {formatBytes(file.bytes)}
                </Typography>
              </TableCell>
              <TableCell>
                <Outcome file={file} />
              </TableCell>
              <TableCell align="right">
                {file.modelUrl && (
                  <Link href={file.modelUrl} download={file.fileName} aria-label={`Download ${file.fileName}`}>
                    <DownloadIcon fontSize="small" sx={{ verticalAlign: 'middle' }} aria-hidden="true" /> .stl
                  </Link>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
