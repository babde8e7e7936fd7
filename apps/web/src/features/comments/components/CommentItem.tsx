import { useState, type ReactNode } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { CommentPerson, ProjectComment } from '@insilico/contracts';
import { formatDateTime } from '../../../lib/formatDate';
import { initialsOf } from '../../../lib/initials';
import { toEditableText } from '../mentionText';
import { CommentBody } from './CommentBody';
import { MentionComposer } from './MentionComposer';

export interface CommentItemProps {
  comment: ProjectComment;
  people: readonly CommentPerson[];
  /** Shown while the page points at this comment (a notification's link). */
  highlighted: boolean;
  /** Null when the caller may not reply here. */
  onReply: (() => void) | null;
  onEdit: (body: string) => Promise<void>;
  onDelete: () => void;
  onDirtyChange: (key: string, dirty: boolean) => void;
  children?: ReactNode;
}

/** One comment: avatar, author, DD.MM.YYYY HH:mm, "edited", the text with mention chips, and its actions. */
export function CommentItem({
  comment,
  people,
  highlighted,
  onReply,
  onEdit,
  onDelete,
  onDirtyChange,
  children,
}: CommentItemProps) {
  const [editing, setEditing] = useState(false);
  const author = comment.author?.fullName ?? 'Former user';
  const editable = editing
    ? toEditableText(comment.body, new Map(comment.mentions.map((m) => [m.userId, m.fullName])))
    : null;

  return (
    <Box
      component="li"
      id={`comment-${comment.id}`}
      aria-label={`Comment by ${author}`}
      data-highlighted={highlighted || undefined}
      sx={{
        listStyle: 'none',
        scrollMarginTop: 96,
        borderRadius: 2,
        p: 1.5,
        mx: -1.5,
        transition: 'background-color 600ms',
        bgcolor: highlighted ? 'action.selected' : 'transparent',
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Avatar src={comment.author?.pictureUrl ?? undefined} alt="" sx={{ width: 36, height: 36, fontSize: 14 }}>
          {initialsOf(author)}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" component="p" sx={{ mb: 0.25 }}>
            <Box component="span" sx={{ fontWeight: 700 }}>
              {author}
            </Box>{' '}
            <Box component="time" dateTime={comment.createdAt} sx={{ color: 'text.secondary' }}>
              {formatDateTime(comment.createdAt)}
            </Box>
            {comment.editedAt && !comment.deleted && (
              <Tooltip title={`Edited ${formatDateTime(comment.editedAt)}`}>
                <Box component="span" tabIndex={0} sx={{ color: 'text.secondary', ml: 0.75 }}>
                  (edited)
                </Box>
              </Tooltip>
            )}
          </Typography>
          {editable ? (
            <MentionComposer
              label="Edit your comment"
              submitLabel="Save"
              people={people}
              initialText={editable.text}
              initialMentions={editable.mentions}
              autoFocus
              onSubmit={async (body) => {
                await onEdit(body);
                setEditing(false);
              }}
              onCancel={() => setEditing(false)}
              dirtyKey={`edit:${comment.id}`}
              onDirtyChange={onDirtyChange}
            />
          ) : (
            <CommentBody comment={comment} />
          )}
          {!editing && (onReply || comment.canEdit || comment.canDelete) && (
            <Stack direction="row" spacing={0.5} sx={{ mt: 0.5, ml: -1 }}>
              {onReply && (
                <Button size="small" onClick={onReply} aria-label={`Reply to ${author}`}>
                  Reply
                </Button>
              )}
              {comment.canEdit && (
                <Button size="small" onClick={() => setEditing(true)}>
                  Edit
                </Button>
              )}
              {comment.canDelete && (
                <Button size="small" color="error" onClick={onDelete}>
                  {comment.canEdit ? 'Delete' : 'Remove'}
                </Button>
              )}
            </Stack>
          )}
          {children}
        </Box>
      </Stack>
    </Box>
  );
}
