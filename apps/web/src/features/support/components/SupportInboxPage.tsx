import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
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
import { supportRequestStatuses, supportRequestStatusLabels, type SupportRequestStatus } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { formatDate } from '../../../lib/formatDate';
import { useInbox } from '../api';
import { StatusChip } from './StatusChip';

type Filter = SupportRequestStatus | 'all';
const filters: Filter[] = [...supportRequestStatuses, 'all'];
const filterLabel = (filter: Filter) => (filter === 'all' ? 'All' : supportRequestStatusLabels[filter]);

/** `/support-inbox`: support staff's list of requests, open ones (the longest waiting first) by default. */
export function SupportInboxPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const given = params.get('status');
  const filter: Filter = filters.find((known) => known === given) ?? 'open';
  const inbox = useInbox(filter);

  let body;
  if (inbox.error && !inbox.data) {
    body =
      inbox.error.status === 403 ? (
        <Alert severity="warning">{inbox.error.message}</Alert>
      ) : (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void inbox.mutate()}>
              Retry
            </Button>
          }
        >
          The inbox could not be loaded. {inbox.error.message}
        </Alert>
      );
  } else if (!inbox.data) {
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading the inbox…</Typography>
      </Stack>
    );
  } else if (inbox.data.items.length === 0) {
    body = (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        {filter === 'open' ? 'No open requests. Everybody has an answer.' : 'No requests here.'}
      </Typography>
    );
  } else {
    body = (
      <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 3 }}>
        <Table aria-label="Support requests">
          <TableHead>
            <TableRow>
              <TableCell>Subject</TableCell>
              <TableCell>User</TableCell>
              <TableCell>Workspace</TableCell>
              <TableCell>Date</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {inbox.data.items.map((item) => {
              const open = () => void navigate(`/support-inbox/${item.requestId}`);
              return (
                <TableRow
                  key={item.requestId}
                  hover
                  tabIndex={0}
                  onClick={open}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter' || event.key === ' ') {
                      event.preventDefault();
                      open();
                    }
                  }}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell sx={{ fontWeight: 700 }}>{item.subject}</TableCell>
                  <TableCell>
                    {item.user.fullName}
                    <Typography variant="caption" color="text.secondary" component="p">
                      {item.user.email}
                    </Typography>
                  </TableCell>
                  <TableCell>{item.device?.deviceName ?? '–'}</TableCell>
                  <TableCell>{formatDate(item.createdAt)}</TableCell>
                  <TableCell>
                    <StatusChip status={item.status} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    );
  }

  return (
    <Page
      title="Support inbox"
      section="Support"
      description="Requests sent through Ask support, for support staff."
      actions={
        <Button component={RouterLink} to="/support-inbox/imaging">
          Imaging modelling queue
        </Button>
      }
    >
      <Tabs
        value={filter}
        onChange={(_event, value: Filter) => setParams(value === 'open' ? {} : { status: value })}
        aria-label="Requests by status"
        sx={{ mb: 2 }}
      >
        {filters.map((value) => (
          <Tab key={value} value={value} label={filterLabel(value)} />
        ))}
      </Tabs>
      {body}
    </Page>
  );
}
