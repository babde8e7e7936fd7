import { useState, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ImagingModelsDeliveryState, ImagingQueueItem } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { deliverImagingModels, imagingUrls, useImagingQueue } from '../api';
import { formatBytes } from './ImagingViews';

type Status = 'modelling' | 'ready';

/** The latest delivery of a dataset's models: its check's progress while pending, then its outcome. */
function DeliveryState({ delivery }: { delivery: ImagingModelsDeliveryState }) {
  if (delivery.status === 'pending') {
    const percent = Math.round(delivery.progress * 100);
    return (
      <Stack spacing={0.5} role="status" data-testid="imaging-delivery-pending">
        <Typography variant="body2">
          {delivery.progressMessage ?? 'Waiting for the check'} … {percent} %
        </Typography>
        <LinearProgress variant="determinate" value={percent} aria-label="Checking the models" />
      </Stack>
    );
  }
  if (delivery.status === 'failed') return <Alert severity="error">{delivery.progressMessage}</Alert>;
  if (delivery.status === 'refused')
    return (
      <Alert severity="error">
        The models were not accepted:
        <List dense disablePadding>
          {delivery.findings.map((finding, i) => (
            <ListItem key={i} disableGutters>
              <ListItemText primary={finding.file} secondary={finding.problem} />
            </ListItem>
          ))}
        </List>
      </Alert>
    );
  return null;
}

/** Download the dataset; deliver its models (a .zip, checked by a job), with the latest delivery's state. */
function QueueActions({ item, onSubmitted }: { item: ImagingQueueItem; onSubmitted: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pending = item.delivery?.status === 'pending';
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      await deliverImagingModels(item.id, file);
      onSubmitted();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The models could not be delivered.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        <Button size="small" href={imagingUrls.download(item.id)} download>
          Download dataset
        </Button>
        {item.status === 'modelling' && (
          <Button size="small" variant="outlined" component="label" disabled={busy || pending}>
            {busy ? <CircularProgress size={16} aria-label="Sending the models" /> : 'Deliver models'}
            <input
              hidden
              type="file"
              accept=".zip,application/zip"
              aria-label={`Patient models of ${item.name}`}
              disabled={busy || pending}
              onChange={(e) => void onFile(e)}
            />
          </Button>
        )}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {item.status === 'modelling' && item.delivery && <DeliveryState delivery={item.delivery} />}
    </Stack>
  );
}

/**
 * `/support-inbox/imaging`: support staff's modelling queue of imaging datasets of every workspace (issue 19 item
 * 7), the longest waiting first; delivered ones under Ready.
 */
export function ImagingQueuePage() {
  const [params, setParams] = useSearchParams();
  const status: Status = params.get('status') === 'ready' ? 'ready' : 'modelling';
  const queue = useImagingQueue(status);
  const [delivered, setDelivered] = useState<string | null>(null);
  // Deliveries seen pending on this page: one that leaves the modelling queue was accepted (the dataset is ready).
  const [watched, setWatched] = useState<Record<string, string>>({});
  const items = queue.data?.items;
  // Compared as each answer arrives (state adjusted while rendering, not in an effect).
  const [lastItems, setLastItems] = useState(items);
  if (items !== lastItems) {
    setLastItems(items);
    if (items && status === 'modelling') {
      const gone = Object.keys(watched).filter((id) => !items.some((item) => item.id === id));
      const seen = items.filter((item) => item.delivery?.status === 'pending' && !(item.id in watched));
      if (gone.length > 0) setDelivered(watched[gone[0]!]!);
      if (gone.length > 0 || seen.length > 0) {
        const kept = Object.entries(watched).filter(([id]) => !gone.includes(id));
        setWatched(Object.fromEntries([...kept, ...seen.map((item) => [item.id, item.name] as const)]));
      }
    }
  }

  let body;
  if (queue.error && !queue.data)
    body =
      queue.error.status === 403 ? (
        <Alert severity="warning">{queue.error.message}</Alert>
      ) : (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void queue.mutate()}>
              Retry
            </Button>
          }
        >
          The queue could not be loaded. {queue.error.message}
        </Alert>
      );
  else if (!queue.data)
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading the queue…</Typography>
      </Stack>
    );
  else if (queue.data.items.length === 0)
    body = (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        {status === 'modelling' ? 'No dataset is waiting for patient models.' : 'No dataset is ready yet.'}
      </Typography>
    );
  else
    body = (
      <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 3 }}>
        <Table aria-label="Imaging datasets">
          <TableHead>
            <TableRow>
              <TableCell>Dataset</TableCell>
              <TableCell>Workspace</TableCell>
              <TableCell>Uploaded by</TableCell>
              <TableCell>Contents</TableCell>
              <TableCell>Uploaded</TableCell>
              <TableCell>Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {queue.data.items.map((item) => (
              <TableRow key={item.id}>
                <TableCell sx={{ fontWeight: 700 }}>{item.name}</TableCell>
                <TableCell>{item.workspace.name}</TableCell>
                <TableCell>{item.uploadedBy?.name ?? '–'}</TableCell>
                <TableCell>
                  {item.counts
                    ? `${item.counts.patients} patients · ${item.counts.series} series · ${item.counts.files} files`
                    : '–'}
                  <Typography variant="caption" color="text.secondary" component="p">
                    {formatBytes(item.bytes)}
                    {item.models ? ` · models of ${item.models.patients.length} patients` : ''}
                  </Typography>
                </TableCell>
                <TableCell>{formatDate(item.createdAt)}</TableCell>
                <TableCell>
                  <QueueActions
                    item={item}
                    onSubmitted={() => {
                      setDelivered(null);
                      setWatched((previous) => ({ ...previous, [item.id]: item.name }));
                      void queue.mutate();
                    }}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    );

  return (
    <Page
      title="Imaging modelling queue"
      section="Support"
      description="De-identified imaging datasets waiting for patient models: closed surfaces <organ>_<phase>.stl and landmarks.json in one folder per patient, as one .zip."
    >
      <Tabs
        value={status}
        onChange={(_event, value: Status) => setParams(value === 'modelling' ? {} : { status: value })}
        aria-label="Datasets by status"
        sx={{ mb: 2 }}
      >
        <Tab value="modelling" label="Waiting for models" />
        <Tab value="ready" label="Ready" />
      </Tabs>
      <Alert severity="info" sx={{ mb: 2 }}>
        Names the product reads: organs as the anatomy names them with dashes (aortic-root, lv-blood-pool, …) and phases
        end-diastole and end-systole. Simulations need aortic-root_{'<phase>'}.stl (LVOT, aortic root and ascending
        aorta as one closed surface, mm) and the landmarks aortic_annulus and ascending_aorta (lvot and
        sinotubular_junction refine the sizing); lv-blood-pool at both phases gives the LV volumes.
      </Alert>
      {delivered && (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setDelivered(null)}>
          The models of {delivered} were accepted: the imaging cohort is ready.
        </Alert>
      )}
      {body}
    </Page>
  );
}
