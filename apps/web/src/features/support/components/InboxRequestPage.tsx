import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Page } from '../../../components/Page';
import { ApiError } from '../../../lib/apiError';
import { formatDateTime } from '../../../lib/formatDate';
import { closeRequest, isInboxKey, sendAnswer, useInboxRequest } from '../api';
import { ReplyForm } from './ReplyForm';
import { StatusChip } from './StatusChip';
import { SupportThread } from './SupportThread';

/** `/support-inbox/:requestId`: one request's thread and screenshot; answer (mails and notifies), close. */
export function InboxRequestPage() {
  const { requestId = '' } = useParams();
  const { mutate } = useSWRConfig();
  const request = useInboxRequest(requestId);
  const [confirmClose, setConfirmClose] = useState(false);
  const [closing, setClosing] = useState(false);
  const [closeError, setCloseError] = useState<string | null>(null);
  const data = request.data;
  // The inbox lists change with every answer and close.
  const refreshLists = () => mutate(isInboxKey);

  async function close() {
    setClosing(true);
    setCloseError(null);
    try {
      await request.mutate(await closeRequest(requestId), { revalidate: false });
      void refreshLists();
      setConfirmClose(false);
    } catch (caught) {
      setCloseError(caught instanceof ApiError ? caught.message : 'The request could not be closed. Please try again.');
    } finally {
      setClosing(false);
    }
  }

  let body;
  if (request.error && !data) {
    body = <Alert severity={request.error.status === 403 ? 'warning' : 'error'}>{request.error.message}</Alert>;
  } else if (!data) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading the request…</Typography>
      </Stack>
    );
  } else {
    body = (
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 3 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between' }}>
            <Stack spacing={0.5}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <StatusChip status={data.status} />
                <Typography variant="body2" color="text.secondary">
                  {formatDateTime(data.createdAt)}
                </Typography>
              </Stack>
              <Typography>
                {data.user.fullName} ·{' '}
                <a href={`mailto:${data.user.email}`} style={{ color: 'inherit' }}>
                  {data.user.email}
                </a>
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Workspace: {data.device?.deviceName ?? 'none selected'}
              </Typography>
            </Stack>
            {data.status !== 'closed' && (
              <Button
                variant="outlined"
                color="inherit"
                onClick={() => setConfirmClose(true)}
                sx={{ alignSelf: 'flex-start' }}
              >
                Close request
              </Button>
            )}
          </Stack>
        </Paper>
        <SupportThread request={data} authorLabel={data.user.fullName} />
        {data.status === 'closed' ? (
          <Alert severity="info">This request is closed.</Alert>
        ) : (
          <ReplyForm
            label="Your answer"
            submitLabel="Send answer"
            onSend={async (answer) => {
              await request.mutate(await sendAnswer(requestId, answer), { revalidate: false });
              void refreshLists();
            }}
          />
        )}
      </Stack>
    );
  }

  return (
    <Page
      title={data?.subject ?? 'Support request'}
      section="Support inbox"
      actions={
        <Button component={RouterLink} to="/support-inbox" startIcon={<ArrowBackIcon />}>
          Inbox
        </Button>
      }
    >
      {body}
      <ConfirmDialog
        open={confirmClose}
        title="Close this request?"
        message="The user can no longer reply to it; a new question becomes a new request."
        confirmLabel="Close request"
        busy={closing}
        error={closeError}
        onConfirm={() => void close()}
        onCancel={() => setConfirmClose(false)}
      />
    </Page>
  );
}
