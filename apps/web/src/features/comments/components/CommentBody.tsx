import { Fragment } from 'react';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import {
  commentDeletedByAuthorText,
  commentRemovedByAdminText,
  commentSegments,
  type ProjectComment,
} from '@insilico/contracts';

/** A comment's text with its mentions as chips (current names), or why it is gone. */
export function CommentBody({ comment }: { comment: ProjectComment }) {
  if (comment.deleted)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
        {comment.deleted === 'by_author' ? commentDeletedByAuthorText : commentRemovedByAdminText}
      </Typography>
    );
  const names = new Map(comment.mentions.map((mention) => [mention.userId, mention.fullName]));
  return (
    <Typography variant="body2" component="div" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {commentSegments(comment.body).map((segment, index) =>
        segment.type === 'text' ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : (
          <Chip
            key={index}
            component="span"
            size="small"
            color="primary"
            variant="outlined"
            label={`@${names.get(segment.userId) ?? segment.label}`}
            data-mention={segment.userId}
            sx={{ height: 22, mx: 0.25, verticalAlign: 'baseline', '& .MuiChip-label': { px: 0.75 } }}
          />
        ),
      )}
    </Typography>
  );
}
