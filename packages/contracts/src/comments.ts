import { z } from 'zod';
import { text } from './text';
import { endpoint } from './endpoint';

/**
 * Project comments (issue 5 item 4, the Comments tab). A body is plain text in which a mention of a team member
 * is the token `@[Full Name](userId)`: the id decides who is mentioned, the name is only what the text showed
 * when it was written (docs/decisions/project-comments.md).
 */

export const commentBodyMaxLength = 5000;
export const commentPageMaxLimit = 50;

/** Shown instead of the body of a deleted comment (the thread keeps its place). */
export const commentDeletedByAuthorText = 'Comment deleted';
export const commentRemovedByAdminText = 'Removed by an admin';

export const commentBodyEmptyMessage = 'Please write a comment.';
export const commentBodyTooLongMessage = `A comment can have at most ${commentBodyMaxLength} characters.`;

// A uuid, as the server hands them out; the name cannot hold brackets or line breaks (the composer strips them).
const mentionPattern =
  /@\[([^[\]\n]{1,200})\]\(([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\)/g;

/** A piece of a comment body: plain text, or a mention token. */
export type CommentSegment = { type: 'text'; text: string } | { type: 'mention'; userId: string; label: string };

/** Splits a body into text and mention segments, in order (text that only looks like a token stays text). */
export function commentSegments(body: string): CommentSegment[] {
  const segments: CommentSegment[] = [];
  let last = 0;
  for (const match of body.matchAll(mentionPattern)) {
    const start = match.index;
    if (start > last) segments.push({ type: 'text', text: body.slice(last, start) });
    segments.push({ type: 'mention', label: match[1]!, userId: match[2]!.toLowerCase() });
    last = start + match[0].length;
  }
  if (last < body.length) segments.push({ type: 'text', text: body.slice(last) });
  return segments;
}

/** The distinct user ids a body mentions, in the order they first appear. */
export function mentionedUserIds(body: string): string[] {
  const ids = commentSegments(body).flatMap((segment) => (segment.type === 'mention' ? [segment.userId] : []));
  return [...new Set(ids)];
}

/** A name as a mention shows it: brackets and line breaks become spaces (so a token stays well-formed). */
export function mentionLabel(fullName: string): string {
  return (
    fullName
      .replace(/[[\]\s]+/g, ' ')
      .trim()
      .slice(0, 200)
      .trim() || 'Someone'
  );
}

/** The token for a mention. */
export function mentionToken(user: { userId: string; fullName: string }): string {
  return `@[${mentionLabel(user.fullName)}](${user.userId})`;
}

/** A body as plain text (mentions as `@Name`), e.g. for a notification. */
export function commentPlainText(body: string): string {
  return commentSegments(body)
    .map((segment) => (segment.type === 'text' ? segment.text : `@${segment.label}`))
    .join('');
}

const commentBodySchema = text()
  .trim()
  .min(1, commentBodyEmptyMessage)
  .max(commentBodyMaxLength, commentBodyTooLongMessage);

export const projectCommentsParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });
export const projectCommentParamsSchema = projectCommentsParamsSchema.extend({ commentId: z.uuid() });

/** `GET …/comments?limit=&before=`: a page of threads, newest top-level comment first. */
export const commentListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(commentPageMaxLimit).default(20),
  /** Cursor: the id of the last top-level comment of the previous page. */
  before: z.uuid().optional(),
});
export type CommentListQuery = z.input<typeof commentListQuerySchema>;

/** `POST …/comments`: a new comment, or a reply when `parentId` names a comment of the project. */
export const createCommentSchema = z.object({
  body: commentBodySchema,
  parentId: z.uuid().nullable().optional(),
});
export type CreateComment = z.input<typeof createCommentSchema>;

/** `PATCH …/comments/:commentId`: the author's new text. */
export const editCommentSchema = z.object({ body: commentBodySchema });
export type EditComment = z.input<typeof editCommentSchema>;

export const commentPersonSchema = z.object({
  userId: text(),
  fullName: text(),
  /** Avatar thumbnail; null: initials. */
  pictureUrl: text().nullable(),
});
export type CommentPerson = z.infer<typeof commentPersonSchema>;

export const commentSchema = z.object({
  id: text(),
  /** The top-level comment of the thread; null for a top-level comment. */
  parentId: text().nullable(),
  /** Null when the author's account no longer exists. */
  author: commentPersonSchema.nullable(),
  /** Empty when deleted. */
  body: text(),
  /** The people the body mentions, with their current names (a token's label may be older). */
  mentions: z.array(z.object({ userId: text(), fullName: text() })),
  createdAt: text(),
  editedAt: text().nullable(),
  /** Why the body is gone: deleted by its author, or removed by an admin. */
  deleted: z.enum(['by_author', 'by_admin']).nullable(),
  /** What the caller may do with it (the server checks again). */
  canEdit: z.boolean(),
  canDelete: z.boolean(),
});
export type ProjectComment = z.infer<typeof commentSchema>;

export const commentThreadSchema = commentSchema.extend({ replies: z.array(commentSchema) });
export type CommentThread = z.infer<typeof commentThreadSchema>;

export const commentPageSchema = z.object({
  items: z.array(commentThreadSchema),
  /** Pass as `before` for the next page; null on the last page. */
  nextBefore: text().nullable(),
  /** Top-level comments of the project. */
  total: z.number().int(),
  /** What the caller may do on this project. */
  canComment: z.boolean(),
  canModerate: z.boolean(),
});
export type CommentPage = z.infer<typeof commentPageSchema>;

/** `GET …/comments/mentionable`: the project team, whom a comment can mention. */
export const mentionableSchema = z.object({ items: z.array(commentPersonSchema) });
export type Mentionable = z.infer<typeof mentionableSchema>;

const commentsPath = '/api/devices/:deviceId/projects/:projectId/comments';
const commentPath = `${commentsPath}/:commentId` as const;

/** The Comments tab's API of a project (docs/decisions/endpoints-in-contracts.md). */
export const commentEndpoints = {
  list: endpoint({
    method: 'GET',
    path: commentsPath,
    params: projectCommentsParamsSchema,
    query: commentListQuerySchema,
    response: { 200: commentPageSchema },
  }),
  mentionable: endpoint({
    method: 'GET',
    path: `${commentsPath}/mentionable`,
    params: projectCommentsParamsSchema,
    response: { 200: mentionableSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: commentsPath,
    params: projectCommentsParamsSchema,
    body: createCommentSchema,
    response: { 201: commentSchema },
  }),
  edit: endpoint({
    method: 'PATCH',
    path: commentPath,
    params: projectCommentParamsSchema,
    body: editCommentSchema,
    response: { 200: commentSchema },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: commentPath,
    params: projectCommentParamsSchema,
    response: { 200: commentSchema },
  }),
};
