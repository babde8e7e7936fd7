import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  commentDeletedByAuthorText,
  commentRemovedByAdminText,
  type CommentPage,
  type ProjectComment,
} from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { ApiError } from '../../../lib/apiError';
import { useSelectedDevice } from '../../devices';
import { deleteComment, editComment, postComment, useCommentPages, useMentionable } from '../api';
import { CommentThreadView } from './CommentThreadView';
import { MentionComposer } from './MentionComposer';

/**
 * The Comments tab of a project (`/projects/view/comments?project=<id>`): threads newest first, write, reply, edit
 * and delete one's own, admins remove any, @mentions of the team. A notification's link also names the workspace
 * (`device`) and the comment, which is loaded, scrolled to and highlighted.
 */
export function ProjectCommentsTab() {
  const [params] = useSearchParams();
  const projectId = params.get('project');
  const target = params.get('comment');
  const selected = useSelectedDevice();
  const deviceId = params.get('device') ?? selected.data?.device?.deviceId ?? null;

  if (!projectId)
    return (
      <Frame>
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/projects/overview" color="inherit" size="small">
              Projects overview
            </Button>
          }
        >
          No project is chosen. Open a project from the projects overview to see its comments.
        </Alert>
      </Frame>
    );
  if (!deviceId) {
    if (selected.error && !selected.data)
      return (
        <Frame>
          <LoadFailure what="Your device workspace" error={selected.error} retry={() => void selected.mutate()} />
        </Frame>
      );
    return (
      <Frame>
        {selected.data ? <Alert severity="info">Choose a device workspace first.</Alert> : <Loading what="comments" />}
      </Frame>
    );
  }
  return (
    <CommentsOfProject key={`${deviceId}/${projectId}`} deviceId={deviceId} projectId={projectId} target={target} />
  );
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 4 } }}>
      {children}
    </Container>
  );
}

interface Deleting {
  comment: ProjectComment;
  busy: boolean;
  error: string | null;
}

function CommentsOfProject({
  deviceId,
  projectId,
  target,
}: {
  deviceId: string;
  projectId: string;
  target: string | null;
}) {
  const pages = useCommentPages(deviceId, projectId);
  const team = useMentionable(deviceId, projectId);
  const people = team.data?.items ?? [];
  const [replyingTo, setReplyingTo] = useState<{ threadId: string; mention: ProjectComment['author'] } | null>(null);
  const [deleting, setDeleting] = useState<Deleting | null>(null);
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set());
  const leave = useLeaveConfirmation(dirty.size > 0);
  /** The linked comment was shown (highlighted for a moment, then not again). */
  const [highlightOver, setHighlightOver] = useState(false);

  const reportDirty = useCallback((key: string, isDirty: boolean) => {
    setDirty((current) => {
      if (current.has(key) === isDirty) return current;
      const next = new Set(current);
      if (isDirty) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);

  const loaded: CommentPage[] = pages.data ?? [];
  const first = loaded[0];
  const last = loaded[loaded.length - 1];
  const threads = loaded.flatMap((page) => page.items);
  const loadingMore = pages.isValidating && pages.size > loaded.length;

  const targetPresent =
    target !== null && threads.some((thread) => thread.id === target || thread.replies.some((r) => r.id === target));
  const highlighted = targetPresent && !highlightOver ? target : null;
  const canLoadMore = Boolean(last?.nextBefore) && !pages.isValidating;

  // A notification's link: load older pages until the comment is there, then scroll to it and highlight it a moment.
  useEffect(() => {
    if (target && !targetPresent && canLoadMore) void pages.setSize(loaded.length + 1);
  }, [target, targetPresent, canLoadMore, loaded.length, pages]);
  useEffect(() => {
    if (!highlighted) return undefined;
    const frame = requestAnimationFrame(() =>
      document.getElementById(`comment-${highlighted}`)?.scrollIntoView?.({ behavior: 'smooth', block: 'center' }),
    );
    const timer = window.setTimeout(() => setHighlightOver(true), 4000);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [highlighted]);

  const refresh = () => pages.mutate();
  const create = async (body: string, parentId: string | null = null) => {
    await postComment(deviceId, projectId, { body, parentId });
    await refresh();
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleting({ ...deleting, busy: true, error: null });
    try {
      await deleteComment(deviceId, projectId, deleting.comment.id);
      await refresh();
      setDeleting(null);
    } catch (cause) {
      setDeleting({
        ...deleting,
        busy: false,
        error: cause instanceof ApiError ? cause.message : 'The comment could not be deleted. Please try again.',
      });
    }
  };

  if (pages.error && !first)
    return (
      <Frame>
        <LoadFailure what="The comments" error={pages.error} retry={() => void pages.mutate()} />
      </Frame>
    );
  if (!first)
    return (
      <Frame>
        <Loading what="comments" />
      </Frame>
    );

  const ownDeletion = deleting?.comment.canEdit ?? false;
  return (
    <Frame>
      <Stack direction="row" sx={{ alignItems: 'baseline', mb: 2 }} spacing={1}>
        <Typography variant="h2" component="h2">
          Comments
        </Typography>
        <Typography color="text.secondary">{first.total > 0 ? `(${first.total})` : ''}</Typography>
      </Stack>
      {first.canComment ? (
        <Paper variant="outlined" sx={{ p: 2, borderRadius: 2, mb: 3 }}>
          <MentionComposer
            label="Write a comment"
            submitLabel="Comment"
            placeholder="Write a comment…"
            people={people}
            onSubmit={(body) => create(body)}
            dirtyKey="new"
            onDirtyChange={reportDirty}
          />
        </Paper>
      ) : (
        <Alert severity="info" sx={{ mb: 3 }}>
          You can read the comments of this project. Only its team can write comments.
        </Alert>
      )}
      {team.error && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          The project team could not be loaded, so @mentions are not offered. {team.error.message}
        </Alert>
      )}
      {pages.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          The comments could not be updated. {pages.error.message}
        </Alert>
      )}
      {threads.length === 0 ? (
        <Box sx={{ py: 4, textAlign: 'center' }}>
          <Typography variant="h3" component="p" gutterBottom>
            No comments yet
          </Typography>
          <Typography color="text.secondary">
            {first.canComment
              ? 'Start the discussion. Type @ to mention a team member, who will be notified.'
              : 'Nobody has commented on this project yet.'}
          </Typography>
        </Box>
      ) : (
        <Stack
          component="ol"
          aria-label="Comments"
          divider={<Divider component="li" aria-hidden="true" />}
          spacing={1}
          sx={{ p: 0, m: 0 }}
        >
          {threads.map((thread) => (
            <CommentThreadView
              key={thread.id}
              thread={thread}
              people={people}
              highlighted={highlighted}
              canComment={first.canComment}
              replying={replyingTo?.threadId === thread.id ? replyingTo.mention : undefined}
              onReply={(mention) => setReplyingTo({ threadId: thread.id, mention })}
              onCancelReply={() => setReplyingTo(null)}
              onSendReply={async (body) => {
                await create(body, thread.id);
                setReplyingTo(null);
              }}
              onEdit={async (comment, body) => {
                await editComment(deviceId, projectId, comment.id, body);
                await refresh();
              }}
              onDelete={(comment) => setDeleting({ comment, busy: false, error: null })}
              onDirtyChange={reportDirty}
            />
          ))}
        </Stack>
      )}
      {last?.nextBefore && (
        <Box sx={{ textAlign: 'center', mt: 3 }}>
          <Button
            onClick={() => void pages.setSize(loaded.length + 1)}
            disabled={loadingMore}
            startIcon={loadingMore ? <CircularProgress size={16} aria-hidden="true" /> : undefined}
          >
            Show older comments
          </Button>
        </Box>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={ownDeletion ? 'Delete comment?' : 'Remove comment?'}
        message={
          ownDeletion
            ? `Your comment will show as “${commentDeletedByAuthorText}” in the thread. This cannot be undone.`
            : `The comment by ${deleting?.comment.author?.fullName ?? 'a former user'} will show as “${commentRemovedByAdminText}” in the thread. This cannot be undone.`
        }
        confirmLabel={ownDeletion ? 'Delete' : 'Remove'}
        busy={deleting?.busy}
        error={deleting?.error}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
      {leave.dialog}
    </Frame>
  );
}
