import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import type { CommentPerson, CommentThread, ProjectComment } from '@insilico/contracts';
import { mentionToken } from '@insilico/contracts';
import { toEditableText } from '../mentionText';
import { CommentItem } from './CommentItem';
import { MentionComposer } from './MentionComposer';

export interface CommentThreadViewProps {
  thread: CommentThread;
  people: readonly CommentPerson[];
  highlighted: string | null;
  canComment: boolean;
  /** While a reply is written in this thread: whom it answers (mentioned at its start), else undefined. */
  replying: ProjectComment['author'] | undefined;
  onReply: (answered: ProjectComment['author']) => void;
  onCancelReply: () => void;
  onSendReply: (body: string) => Promise<void>;
  onEdit: (comment: ProjectComment, body: string) => Promise<void>;
  onDelete: (comment: ProjectComment) => void;
  onDirtyChange: (key: string, dirty: boolean) => void;
}

/** A top-level comment, its replies (oldest first) and, when answering, the reply field under them. */
export function CommentThreadView({
  thread,
  people,
  highlighted,
  canComment,
  replying,
  onReply,
  onCancelReply,
  onSendReply,
  onEdit,
  onDelete,
  onDirtyChange,
}: CommentThreadViewProps) {
  const item = (comment: ProjectComment, answered: ProjectComment['author']) => ({
    comment,
    people,
    highlighted: highlighted === comment.id,
    onReply: canComment && !comment.deleted ? () => onReply(answered) : null,
    onEdit: (body: string) => onEdit(comment, body),
    onDelete: () => onDelete(comment),
    onDirtyChange,
  });
  // Answering a reply mentions its author, if they are on the team (the reply joins this thread either way).
  const start =
    replying && replying.userId !== thread.author?.userId && people.some((p) => p.userId === replying.userId)
      ? toEditableText(`${mentionToken(replying)} `, new Map())
      : null;

  return (
    <CommentItem {...item(thread, null)}>
      {(thread.replies.length > 0 || replying !== undefined) && (
        <Stack component="ol" aria-label="Replies" spacing={0.5} sx={{ p: 0, m: 0, mt: 1 }}>
          {thread.replies.map((reply) => (
            <CommentItem key={reply.id} {...item(reply, reply.author)} />
          ))}
          {replying !== undefined && (
            <Box component="li" sx={{ listStyle: 'none', pt: 1 }}>
              <MentionComposer
                label="Write a reply"
                submitLabel="Reply"
                placeholder="Write a reply…"
                people={people}
                initialText={start?.text}
                initialMentions={start?.mentions}
                autoFocus
                onSubmit={onSendReply}
                onCancel={onCancelReply}
                dirtyKey={`reply:${thread.id}`}
                onDirtyChange={onDirtyChange}
              />
            </Box>
          )}
        </Stack>
      )}
    </CommentItem>
  );
}
