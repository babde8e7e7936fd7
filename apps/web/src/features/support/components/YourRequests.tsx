import { useSearchParams } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { formatDate } from '../../../lib/formatDate';
import { myRequestsKey, requestKey, sendReply, useMyRequest, useMyRequests } from '../api';
import { useAskSupport } from '../useAskSupport';
import { ReplyForm } from './ReplyForm';
import { StatusChip } from './StatusChip';
import { SupportThread } from './SupportThread';

/** `?request=<id>` opens one request (the link of the "Support answered" notification). */
const requestParam = 'request';

function RequestDialog({ requestId, onClose }: { requestId: string; onClose: () => void }) {
  const { mutate } = useSWRConfig();
  const request = useMyRequest(requestId);
  const data = request.data;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="support-request-title">
      <DialogTitle id="support-request-title" sx={{ pr: 7 }}>
        {data ? data.subject : 'Support request'}
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        {request.error ? (
          <Alert severity="error">This request could not be loaded. {request.error.message}</Alert>
        ) : !data ? (
          <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
            <CircularProgress size={22} aria-hidden="true" />
            <Typography color="text.secondary">Loading the request…</Typography>
          </Stack>
        ) : (
          <Stack spacing={2.5}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <StatusChip status={data.status} />
              <Typography variant="body2" color="text.secondary">
                Sent {formatDate(data.createdAt)}
                {data.device ? ` from ${data.device.deviceName}` : ''}
              </Typography>
            </Stack>
            <SupportThread request={data} authorLabel="You" />
            {data.status === 'closed' ? (
              <Alert severity="info">This request is closed. If you need more help, send a new request.</Alert>
            ) : (
              <ReplyForm
                label="Your reply"
                submitLabel="Send reply"
                onSend={async (body) => {
                  await request.mutate(await sendReply(requestId, body), { revalidate: false });
                  void mutate(myRequestsKey);
                }}
              />
            )}
          </Stack>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** "Your requests" on /help: the user's support requests with their status, each opening its thread. */
export function YourRequests() {
  const requests = useMyRequests();
  const drawer = useAskSupport();
  const [params, setParams] = useSearchParams();
  const { mutate } = useSWRConfig();
  const openId = params.get(requestParam);

  const openRequest = (requestId: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set(requestParam, requestId);
      return next;
    });
  // A request may have changed since it was loaded (an answer arrived): both are read again.
  const closeRequest = () => {
    if (openId) void mutate(requestKey(openId));
    void mutate(myRequestsKey);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(requestParam);
        return next;
      },
      { replace: true },
    );
  };

  let body;
  if (requests.error && !requests.data) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void requests.mutate()}>
            Retry
          </Button>
        }
      >
        Your requests could not be loaded. {requests.error.message}
      </Alert>
    );
  } else if (!requests.data) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading your requests…</Typography>
      </Stack>
    );
  } else if (requests.data.items.length === 0) {
    body = (
      <Typography color="text.secondary">
        You have not asked support anything yet.{' '}
        <Button size="small" onClick={drawer.open}>
          Ask support
        </Button>
      </Typography>
    );
  } else {
    body = (
      <Paper variant="outlined" sx={{ borderRadius: 3 }}>
        <List disablePadding aria-label="Your support requests">
          {requests.data.items.map((item, index) => (
            <ListItemButton
              key={item.requestId}
              divider={index < requests.data!.items.length - 1}
              onClick={() => openRequest(item.requestId)}
            >
              <ListItemText
                primary={item.subject}
                secondary={`Sent ${formatDate(item.createdAt)}${item.replies > 0 ? ` · ${item.replies} ${item.replies === 1 ? 'reply' : 'replies'}` : ''}`}
                slotProps={{ primary: { sx: { fontWeight: 700 } } }}
              />
              <StatusChip status={item.status} />
            </ListItemButton>
          ))}
        </List>
      </Paper>
    );
  }

  return (
    <>
      {body}
      {openId && <RequestDialog key={openId} requestId={openId} onClose={closeRequest} />}
    </>
  );
}
