import {
  commentPlainText,
  commentSegments,
  mentionedUserIds,
  type CommentPage,
  type CommentPerson,
  type Mentionable,
  type ProjectComment,
} from '@insilico/contracts';
import { decideProject } from '../policies/project.policy';
import type { CommentPersonRow, CommentRepository, CommentView } from '../repositories/comment.repository';
import { ServiceError } from './errors';
import type { NotificationService } from './notification.service';
import { userPictureUrl } from './picture-urls';
import type { ProjectAccessGrant, ProjectAccessService } from './project-access.service';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { projectEvent } from '../events/kinds';

export interface CommentServiceDeps {
  comments: CommentRepository;
  access: ProjectAccessService;
  notifications: NotificationService;
  log: { error(details: object, message: string): void };
  /** Comments and their domain events commit together (issue 20). */
  unitOfWork: UnitOfWork;
}

/** Where a comment lives in the web app (the mention notification leads there). */
export function commentLink(deviceId: string, projectId: string, commentId: string): string {
  const query = new URLSearchParams({ project: projectId, device: deviceId, comment: commentId });
  return `/projects/view/comments?${query.toString()}`;
}

export const mentionNotificationKind = 'project.comment.mention';
const excerptLength = 200;

const commentNotFound = () =>
  new ServiceError(404, 'comment_not_found', 'This comment does not exist in this project.');
const commentGone = () =>
  new ServiceError(409, 'comment_deleted', 'This comment was deleted. Reload the comments to see the thread as it is.');

/**
 * The Comments tab of a project (docs/decisions/project-comments.md): threads one level deep, edits by the author,
 * soft deletes by the author or a moderator, and mentions of team members, each of whom hears of it once.
 */
export class CommentService {
  constructor(private readonly deps: CommentServiceDeps) {}

  /** A page of threads: top-level comments newest first, each with its replies oldest first. */
  async list(
    userId: string,
    deviceId: string,
    projectId: string,
    query: { limit: number; before?: string | undefined },
  ): Promise<CommentPage> {
    const access = await this.deps.access.require('project.read', userId, deviceId, projectId);
    const { comments } = this.deps;
    const rows = await comments.topLevel(projectId, query.limit + 1, query.before ?? null);
    const page = rows.slice(0, query.limit);
    const [replies, total] = await Promise.all([
      comments.replies(page.map((row) => row.id)),
      comments.countTopLevel(projectId),
    ]);
    const present = await this.presenter(userId, access, [...page, ...replies]);
    return {
      items: page.map((row) => ({
        ...present(row),
        replies: replies.filter((reply) => reply.parentId === row.id).map(present),
      })),
      nextBefore: rows.length > query.limit ? page[page.length - 1]!.id : null,
      total,
      canComment: decideProject('project.comment', access.standing).allowed,
      canModerate: decideProject('project.moderate', access.standing).allowed,
    };
  }

  /** The project team: whom a comment may mention. */
  async mentionable(userId: string, deviceId: string, projectId: string): Promise<Mentionable> {
    await this.deps.access.require('project.read', userId, deviceId, projectId);
    return { items: (await this.deps.comments.team(projectId)).map(toPerson) };
  }

  /** A new comment, or a reply; a reply to a reply joins the thread of its top-level comment. */
  async create(
    userId: string,
    deviceId: string,
    projectId: string,
    input: { body: string; parentId?: string | null | undefined },
  ): Promise<ProjectComment> {
    const access = await this.deps.access.require('project.comment', userId, deviceId, projectId);
    let parentId: string | null = null;
    if (input.parentId) {
      const parent = await this.deps.comments.find(projectId, input.parentId);
      if (!parent)
        throw new ServiceError(404, 'comment_not_found', 'The comment you reply to does not exist in this project.');
      if (parent.deletedAt) throw commentGone();
      parentId = parent.parentId ?? parent.id;
    }
    const mentions = await this.checkedMentions(projectId, input.body, []);
    const row = await this.deps.unitOfWork.run(async (tx) => {
      const inserted = await tx.comments.insert({ projectId, parentId, authorId: userId, body: input.body, mentions });
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'comment.created', { type: 'comment', id: inserted.id }),
        after: { body: input.body, parentId },
      });
      return inserted;
    });
    const saved = (await this.deps.comments.find(projectId, row.id))!;
    await this.notifyMentioned(access, saved, mentions);
    return (await this.presenter(userId, access, [saved]))(saved);
  }

  /** The author's new text; only people newly mentioned hear of it. */
  async edit(
    userId: string,
    deviceId: string,
    projectId: string,
    commentId: string,
    body: string,
  ): Promise<ProjectComment> {
    const access = await this.deps.access.require('project.comment', userId, deviceId, projectId);
    const comment = await this.deps.comments.find(projectId, commentId);
    if (!comment) throw commentNotFound();
    if (comment.authorId !== userId)
      throw new ServiceError(403, 'not_comment_author', 'You can edit only your own comments.');
    if (comment.deletedAt) throw commentGone();
    if (body === comment.body) return (await this.presenter(userId, access, [comment]))(comment);
    const mentions = await this.checkedMentions(projectId, body, comment.mentions);
    await this.deps.unitOfWork.run(async (tx) => {
      await tx.comments.updateBody(commentId, body, mentions);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'comment.edited', { type: 'comment', id: commentId }),
        before: { body: comment.body },
        after: { body },
      });
    });
    const saved = (await this.deps.comments.find(projectId, commentId))!;
    const before = new Set(comment.mentions);
    await this.notifyMentioned(
      access,
      saved,
      mentions.filter((id) => !before.has(id)),
    );
    return (await this.presenter(userId, access, [saved]))(saved);
  }

  /** Deletes one's own comment, or (moderators) removes anybody's; the thread keeps its place. */
  async remove(userId: string, deviceId: string, projectId: string, commentId: string): Promise<ProjectComment> {
    const access = await this.deps.access.require('project.read', userId, deviceId, projectId);
    const comment = await this.deps.comments.find(projectId, commentId);
    if (!comment) throw commentNotFound();
    if (!mayDelete(userId, access, comment))
      throw new ServiceError(
        403,
        'forbidden',
        comment.authorId === userId
          ? 'You can no longer delete comments in this project: you are not on its team.'
          : 'You can delete only your own comments. Admins can remove any comment.',
      );
    if (comment.deletedAt) throw commentGone();
    await this.deps.unitOfWork.run(async (tx) => {
      await tx.comments.softDelete(commentId, userId);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'comment.deleted', { type: 'comment', id: commentId }),
        before: { body: comment.body },
      });
    });
    const saved = (await this.deps.comments.find(projectId, commentId))!;
    return (await this.presenter(userId, access, [saved]))(saved);
  }

  /**
   * The ids a body mentions, each on the project team. People already mentioned before an edit may stay
   * even if they have left the team since (the author did not add them now).
   */
  private async checkedMentions(projectId: string, body: string, alreadyMentioned: string[]): Promise<string[]> {
    const ids = mentionedUserIds(body);
    if (ids.length === 0) return [];
    const team = new Set((await this.deps.comments.team(projectId)).map((person) => person.userId));
    const kept = new Set(alreadyMentioned);
    const outside = ids.filter((id) => !team.has(id) && !kept.has(id));
    if (outside.length > 0) {
      const labels = commentSegments(body).flatMap((segment) =>
        segment.type === 'mention' && outside.includes(segment.userId) ? [segment.label] : [],
      );
      throw new ServiceError(
        422,
        'mention_not_on_team',
        `Only members of the project team can be mentioned. Not on the team: ${[...new Set(labels)].join(', ')}.`,
        { userIds: outside },
      );
    }
    return ids;
  }

  /** One notification per mentioned person but the author; a retried post is posted once (dedupe key). */
  private async notifyMentioned(access: ProjectAccessGrant, comment: CommentView, userIds: string[]): Promise<void> {
    const recipients = userIds.filter((id) => id !== comment.authorId);
    if (recipients.length === 0) return;
    const { project } = access;
    const authorName = comment.author?.fullName ?? 'Someone';
    const text = commentPlainText(comment.body);
    const body = text.length > excerptLength ? `${text.slice(0, excerptLength - 1)}…` : text;
    // The comment is saved: a failed notification is logged, not answered as a failed comment (a retry would
    // post the comment twice).
    await Promise.all(
      recipients.map((recipient) =>
        this.deps.notifications
          .post({
            userId: recipient,
            kind: mentionNotificationKind,
            title: `${authorName} mentioned you in the project "${project.name}"`,
            body,
            link: commentLink(project.deviceId, project.id, comment.id),
            dedupeKey: `comment-mention:${comment.id}:${recipient}`,
          })
          .catch((error: unknown) =>
            this.deps.log.error({ err: error, commentId: comment.id }, 'mention notification failed'),
          ),
      ),
    );
  }

  /** Turns rows into the API's comments for this caller (current names of mentioned people, permissions). */
  private async presenter(
    userId: string,
    access: ProjectAccessGrant,
    rows: CommentView[],
  ): Promise<(row: CommentView) => ProjectComment> {
    const mentionedIds = [...new Set(rows.flatMap((row) => row.mentions))];
    const names = new Map(
      (await this.deps.comments.people(mentionedIds)).map((person) => [person.userId, person.fullName]),
    );
    const mayComment = decideProject('project.comment', access.standing).allowed;
    return (row) => {
      const deleted = row.deletedAt
        ? row.deletedBy && row.deletedBy === row.authorId
          ? 'by_author'
          : 'by_admin'
        : null;
      return {
        id: row.id,
        parentId: row.parentId,
        author: row.author ? toPerson(row.author) : null,
        body: deleted ? '' : row.body,
        mentions: deleted
          ? []
          : row.mentions.flatMap((id) => {
              const fullName = names.get(id);
              return fullName === undefined ? [] : [{ userId: id, fullName }];
            }),
        createdAt: row.createdAt.toISOString(),
        editedAt: row.editedAt ? row.editedAt.toISOString() : null,
        deleted,
        canEdit: !deleted && mayComment && row.authorId === userId,
        canDelete: !deleted && mayDelete(userId, access, row),
      };
    };
  }
}

/** Authors on the team delete their own comments; moderators remove anybody's. */
function mayDelete(userId: string, access: ProjectAccessGrant, comment: CommentView): boolean {
  if (comment.authorId === userId && decideProject('project.comment', access.standing).allowed) return true;
  return decideProject('project.moderate', access.standing).allowed;
}

function toPerson(row: CommentPersonRow): CommentPerson {
  return { userId: row.userId, fullName: row.fullName, pictureUrl: userPictureUrl({ id: row.userId, ...row }) };
}
