import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  designHistoryEntryKindLabels,
  designHistorySectionLabels,
  designHistorySections,
  signatureMeaningLabels,
  signedReturnParam,
  type DesignHistoryItem,
  type DesignHistorySection,
  type Signature,
} from '@insilico/contracts';
import { useSignedInUser } from '../../../app/user/userContext';
import { FilterSelect } from '../../../components/FilterSelect';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { formatDate, formatDateTime } from '../../../lib/formatDate';
import { useSelectedDevice } from '../../devices';
import { designHistoryExportUrl, useDesignHistory, useDesignHistoryExports, type DesignHistoryFilters } from '../api';
import { FileExportButtons } from './FileExportButtons';
import { FileExports } from './FileExports';
import { EntryAttachments } from './EntryAttachments';
import { emptyEntry, entryChanged, NewEntryForm, type NewEntryDraft } from './NewEntryForm';
import { SignDialog } from './SignDialog';

const signedNotice = 'Signed. The signature is shown on the record.';

/** A signature's time as signed: the UTC day and second. */
function utcTime(iso: string): string {
  return `${formatDate(iso, 'UTC')} ${iso.slice(11, 19)} UTC`;
}

/** §11.50: the printed name, the time and the meaning, wherever the record is shown. */
function SignatureLine({ signature }: { signature: Signature }) {
  return (
    <Box component="li" data-testid="signature" sx={{ listStyle: 'none' }}>
      <Typography variant="body2">
        <strong>{signatureMeaningLabels[signature.meaning]}</strong> by {signature.signer.name} ·{' '}
        <time dateTime={signature.signedAt}>{utcTime(signature.signedAt)}</time>
      </Typography>
      {!signature.valid && (
        <Alert severity="error" sx={{ mt: 0.5 }}>
          This record no longer matches what was signed.
        </Alert>
      )}
    </Box>
  );
}

interface ItemProps {
  deviceId: string;
  item: DesignHistoryItem;
  highlighted: boolean;
  /** Sign the record (the project's team, guests excepted: the server's project.sign). */
  canSign: boolean;
  /** Attach files to the entry and supersede it (the server's project.work). */
  canWork: boolean;
  onSign: (item: DesignHistoryItem) => void;
  /** A new entry that replaces this one (a signed entry is never edited). */
  onSupersede: (item: DesignHistoryItem) => void;
  /** A file was attached to the item's entry (the timeline is read again). */
  onAttached: () => void;
}

function TimelineItem({ deviceId, item, highlighted, canSign, canWork, onSign, onSupersede, onAttached }: ItemProps) {
  const title = item.entry ? item.entry.title : item.summary;
  return (
    <ListItem
      divider
      alignItems="flex-start"
      data-testid="design-history-item"
      data-highlighted={highlighted ? 'true' : undefined}
      sx={{
        display: 'block',
        py: 1.5,
        borderLeft: 4,
        borderLeftColor: highlighted ? 'primary.main' : 'transparent',
        bgcolor: highlighted ? 'action.hover' : undefined,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 0.5 }}>
        <Chip size="small" label={designHistorySectionLabels[item.section]} />
        {item.entry && <Chip size="small" variant="outlined" label={designHistoryEntryKindLabels[item.entry.kind]} />}
        {item.entry?.supersededById && <Chip size="small" color="warning" label="Superseded by a later entry" />}
        {item.toBeRerun && (
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={`To be re-run on ${item.toBeRerun.versionName}`}
          />
        )}
        <Typography variant="caption" color="text.secondary">
          {item.project.name}
        </Typography>
      </Stack>
      <Typography variant="body1" component="h3">
        {item.link && !item.entry ? (
          <Link component={RouterLink} to={item.link}>
            {title}
          </Link>
        ) : (
          title
        )}
      </Typography>
      {item.entry && item.entry.body && (
        <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
          {item.entry.body}
        </Typography>
      )}
      {item.entry && (
        <EntryAttachments
          deviceId={deviceId}
          entryId={item.entry.id}
          entryTitle={title}
          attachments={item.entry.attachments}
          canAttach={canWork && item.signatures.length === 0}
          onAttached={onAttached}
        />
      )}
      {item.evidence.length > 0 && (
        <Box component="ul" aria-label="Evidence" sx={{ pl: 2, m: 0, mt: 0.5 }}>
          {item.evidence.map((cited) => (
            <Typography component="li" variant="body2" key={cited.id}>
              Evidence:{' '}
              {cited.link ? (
                <Link component={RouterLink} to={cited.link}>
                  {cited.summary}
                </Link>
              ) : (
                cited.summary
              )}
            </Typography>
          ))}
        </Box>
      )}
      {item.reason && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          Reason: {item.reason}
        </Typography>
      )}
      {item.resultsSnapshot && (
        <Typography variant="body2" data-testid="results-snapshot" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          Results kept as a snapshot on{' '}
          <time dateTime={item.resultsSnapshot.takenAt}>{utcTime(item.resultsSnapshot.takenAt)}</time> (revision{' '}
          {item.resultsSnapshot.revision}, code {item.resultsSnapshot.codeVersion}; SHA-256{' '}
          <code>{item.resultsSnapshot.sha256}</code>)
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {item.actor?.name ?? 'The system'} · <time dateTime={item.occurredAt}>{formatDateTime(item.occurredAt)}</time>
      </Typography>
      {!item.entry && item.snapshot !== null && (
        <Box component="details" sx={{ mt: 0.5 }}>
          <Box component="summary" sx={{ cursor: 'pointer', typography: 'caption' }}>
            Recorded state
          </Box>
          <Box component="pre" sx={{ typography: 'caption', whiteSpace: 'pre-wrap', m: 0 }}>
            {JSON.stringify(item.snapshot, null, 2)}
          </Box>
        </Box>
      )}
      {item.signatures.length > 0 && (
        <Box component="ul" aria-label="Signatures" sx={{ p: 0, m: 0, mt: 1 }}>
          {item.signatures.map((signature) => (
            <SignatureLine key={signature.id} signature={signature} />
          ))}
        </Box>
      )}
      {(canSign || (canWork && item.entry && !item.entry.supersededById)) && (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          {canSign && (
            <Button size="small" onClick={() => onSign(item)} aria-label={`Sign ${title}`}>
              Sign
            </Button>
          )}
          {canWork && item.entry && !item.entry.supersededById && (
            <Button size="small" onClick={() => onSupersede(item)} aria-label={`Supersede ${title}`}>
              Supersede
            </Button>
          )}
        </Stack>
      )}
    </ListItem>
  );
}

/**
 * /design-history (issue 20 item 4): the design history file of the selected workspace's projects (ISO 13485
 * §7.3.10) as a timeline of inputs, outputs, evidence and reviews from the audit trail, with people's entries and
 * electronic signatures. Filters live in the address; hovering a project highlights its entries.
 */
export function DesignHistoryPage({
  onUnsavedChange,
}: {
  /** Told whether a new entry holds input that leaving the page would lose (the route asks before leaving). */
  onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const [params, setParams] = useSearchParams();
  const user = useSignedInUser();
  const device = useSelectedDevice();
  const selected = device.data?.device ?? null;
  const deviceId = selected?.deviceId ?? null;
  const filters = useMemo<DesignHistoryFilters>(() => {
    const section = params.get('section') ?? '';
    return {
      projectId: params.get('projectId') ?? '',
      section: (designHistorySections as readonly string[]).includes(section) ? (section as DesignHistorySection) : '',
    };
  }, [params]);
  const history = useDesignHistory(deviceId, filters);
  const [isAddingNewEntry, setIsAddingNewEntry] = useState(false);
  const [newDesignHistoryEntry, setNewDesignHistoryEntry] = useState<NewEntryDraft>(emptyEntry(''));
  /** The entry as it was started (empty, or the superseded one's copy): input is what differs from it. */
  const [entryStart, setEntryStart] = useState<NewEntryDraft>(newDesignHistoryEntry);
  const unsaved = isAddingNewEntry && entryChanged(entryStart, newDesignHistoryEntry);
  useEffect(() => {
    onUnsavedChange?.(unsaved);
  }, [onUnsavedChange, unsaved]);
  const [hoveredProjectId, setHoveredProjectId] = useState<string | null>(null);
  const [signing, setSigning] = useState<DesignHistoryItem | null>(null);
  // Back from the organisation's sign-in page with the record signed (the server's callback adds `signed=1`): the
  // confirmation shows here, and the marker leaves the address so that a reload does not show it again.
  const [notice, setNotice] = useState<{ text: string; warning?: boolean } | null>(() =>
    params.get(signedReturnParam) === '1' ? { text: signedNotice } : null,
  );
  useEffect(() => {
    if (!params.has(signedReturnParam)) return;
    const next = new URLSearchParams(params);
    next.delete(signedReturnParam);
    setParams(next, { replace: true });
  }, [params, setParams]);
  const [exportError, setExportError] = useState<string | null>(null);
  const fileExports = useDesignHistoryExports(deviceId);

  const projects = history.first?.projects ?? [];
  const filtered = filters.projectId !== '' || filters.section !== '';
  // What the user may do on each project, as the server's project policy decides it (the list says so per project).
  const rightsOf = (projectId: string) => projects.find((project) => project.id === projectId);
  const workable = projects.filter((project) => project.canWork);

  const setFilter = (name: keyof DesignHistoryFilters, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  const startEntry = (
    draft: NewEntryDraft = emptyEntry(
      rightsOf(filters.projectId)?.canWork ? filters.projectId : (workable[0]?.id ?? ''),
    ),
  ) => {
    setNewDesignHistoryEntry(draft);
    setEntryStart(draft);
    setIsAddingNewEntry(true);
    setNotice(null);
  };
  const supersede = (item: DesignHistoryItem) => {
    if (!item.entry) return;
    const { id, kind, title, body, evidenceEventIds } = item.entry;
    startEntry({
      projectId: item.project.id,
      kind,
      title,
      body,
      evidenceEventIds,
      files: [],
      supersedes: { id, title },
    });
    window.scrollTo({ top: 0 });
  };

  return (
    <Page
      title="Design history"
      section="Workspace"
      description="The record of your device design decisions."
      actions={
        deviceId && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Button component="a" href={designHistoryExportUrl(deviceId, filters.projectId)} download>
              Export CSV
            </Button>
            <FileExportButtons
              deviceId={deviceId}
              projectId={filters.projectId}
              onError={setExportError}
              onQueued={() => void fileExports.mutate()}
            />
            {!isAddingNewEntry && workable.length > 0 && (
              <Button variant="contained" onClick={() => startEntry()}>
                Add entry
              </Button>
            )}
          </Stack>
        )
      }
    >
      {device.data && !selected ? (
        <Alert severity="info">Choose a device workspace in the top bar to see its design history.</Alert>
      ) : history.error ? (
        <LoadFailure what="The design history" error={history.error} retry={history.refresh} />
      ) : history.isLoading || !deviceId ? (
        <Loading what="the design history" />
      ) : (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Paper variant="outlined" sx={{ borderRadius: 3, minWidth: 220, width: { xs: '100%', md: 240 } }}>
            <Typography variant="subtitle2" component="h2" sx={{ px: 2, pt: 1.5 }}>
              Projects
            </Typography>
            {projects.length === 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
                No projects yet.
              </Typography>
            ) : (
              <List aria-label="Projects" dense>
                {projects.map((project) => (
                  <ListItemButton
                    key={project.id}
                    selected={filters.projectId === project.id}
                    onClick={() => setFilter('projectId', filters.projectId === project.id ? '' : project.id)}
                    onMouseEnter={() => setHoveredProjectId(project.id)}
                    onMouseLeave={() => setHoveredProjectId(null)}
                    onFocus={() => setHoveredProjectId(project.id)}
                    onBlur={() => setHoveredProjectId(null)}
                  >
                    {project.name}
                  </ListItemButton>
                ))}
              </List>
            )}
          </Paper>
          <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }} role="group" aria-label="Filter">
              <FilterSelect
                label="Project"
                value={filters.projectId}
                allLabel="All projects"
                options={projects.map((project) => ({ value: project.id, label: project.name }))}
                onChange={(value) => setFilter('projectId', value)}
                minWidth={200}
              />
              <FilterSelect
                label="Section"
                value={filters.section}
                allLabel="All sections"
                options={designHistorySections.map((section) => ({
                  value: section,
                  label: designHistorySectionLabels[section],
                }))}
                onChange={(value) => setFilter('section', value)}
                minWidth={240}
              />
              {filtered && (
                <Button onClick={() => setParams(new URLSearchParams(), { replace: true })}>Clear filters</Button>
              )}
            </Stack>
            {exportError && (
              <Alert severity="error" sx={{ mb: 2 }} onClose={() => setExportError(null)}>
                {exportError}
              </Alert>
            )}
            <FileExports
              exports={fileExports.data}
              projectName={(id) => projects.find((project) => project.id === id)?.name}
              highlighted={params.get('export')}
            />
            {notice && (
              <Alert severity={notice.warning ? 'warning' : 'success'} sx={{ mb: 2 }} onClose={() => setNotice(null)}>
                {notice.text}
              </Alert>
            )}
            {isAddingNewEntry && (
              <NewEntryForm
                deviceId={deviceId}
                projects={workable}
                evidence={history.items.filter((item) => !item.entry && item.section !== 'review')}
                entry={newDesignHistoryEntry}
                onChange={setNewDesignHistoryEntry}
                onCancel={() => setIsAddingNewEntry(false)}
                onAdded={(problem) => {
                  setIsAddingNewEntry(false);
                  setNotice(
                    problem
                      ? {
                          text: `The entry was added to the design history, but ${problem} Attach it from the entry.`,
                          warning: true,
                        }
                      : { text: 'The entry was added to the design history.' },
                  );
                  history.refresh();
                }}
              />
            )}
            {history.items.length === 0 ? (
              <Alert severity="info">
                {filtered
                  ? 'Nothing in the design history matches these filters.'
                  : 'No design history yet. Design inputs, device versions, evidence and reviews of your projects appear here.'}
              </Alert>
            ) : (
              <>
                <List aria-label="Design history" disablePadding>
                  {history.items.map((item) => (
                    <TimelineItem
                      key={item.id}
                      deviceId={deviceId}
                      item={item}
                      highlighted={hoveredProjectId === item.project.id}
                      canSign={(rightsOf(item.project.id)?.canSign ?? false) && item.action !== 'signature.signed'}
                      canWork={rightsOf(item.project.id)?.canWork ?? false}
                      onSign={setSigning}
                      onSupersede={supersede}
                      onAttached={history.refresh}
                    />
                  ))}
                </List>
                {history.hasMore && (
                  <Button sx={{ mt: 2 }} onClick={history.loadMore} disabled={history.isLoadingMore}>
                    {history.isLoadingMore ? 'Loading…' : 'Show older entries'}
                  </Button>
                )}
              </>
            )}
          </Box>
        </Stack>
      )}
      {signing && deviceId && history.first && (
        <SignDialog
          deviceId={deviceId}
          record={signing.record}
          recordTitle={signing.entry?.title ?? signing.summary}
          signerName={user.fullName}
          needsEmail={history.first.signing.needsEmail}
          method={history.first.signing.method}
          onClose={() => setSigning(null)}
          onSigned={() => {
            setSigning(null);
            setNotice({ text: signedNotice });
            history.refresh();
          }}
        />
      )}
    </Page>
  );
}
