import { commentBodyMaxLength, type Mentionable, type NotificationList } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { and, eq } from 'drizzle-orm';
import { insertProject } from '../../../test/factories/project-rows';
import { projectMembers } from '../../db/schema';
import {
  commentsPath,
  deleteComment,
  editComment,
  listComments,
  mention,
  postComment,
} from '../../../test/fixtures/comment.fixtures';

/** Threads, edits, deletes and mentions of the comment API (issue 5 item 4; docs/decisions/project-comments.md). */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
/** In the workspace, not on the project team. */
let outsider: Person;
let deviceId = '';
let projectId = '';

beforeAll(async () => {
  ({
    server,
    admin,
    deviceId,
    people: { member, guest, outsider },
    projectId,
  } = await projectWorld({
    people: { member: 'member', guest: 'guest', outsider: 'member' },
    project: { team: ['admin', 'member', 'guest'], name: 'Valve study' },
  }));
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const notificationsOf = async (person: Person) =>
  (await json<NotificationList>(await person.browser.get('/api/notifications?limit=100'))).items;

describe('threads', () => {
  it('lists top-level comments newest first, each with its replies oldest first, and pages them', async () => {
    const project = await insertProject(server, { deviceId, team: [admin.id, member.id] });
    const first = await postComment(admin.browser, deviceId, project, 'First');
    const second = await postComment(member.browser, deviceId, project, 'Second');
    const third = await postComment(admin.browser, deviceId, project, 'Third');
    const replyA = await postComment(member.browser, deviceId, project, 'Reply A', first.id);
    // A reply to a reply joins the thread of the top-level comment (one level of threading).
    const replyB = await postComment(admin.browser, deviceId, project, 'Reply B', replyA.id);
    expect(replyB.parentId).toBe(first.id);

    const page1 = await listComments(admin.browser, deviceId, project, '?limit=2');
    expect(page1.total).toBe(3);
    expect(page1.items.map((item) => item.body)).toEqual(['Third', 'Second']);
    expect(page1.nextBefore).toBe(second.id);
    const page2 = await listComments(admin.browser, deviceId, project, `?limit=2&before=${page1.nextBefore}`);
    expect(page2.items.map((item) => item.id)).toEqual([first.id]);
    expect(page2.items[0]!.replies.map((reply) => reply.body)).toEqual(['Reply A', 'Reply B']);
    expect(page2.nextBefore).toBeNull();
    expect(third.author).toMatchObject({ userId: admin.id, fullName: admin.account.fullName });
  });

  it('trims the body and refuses an empty or too long one', async () => {
    const saved = await postComment(member.browser, deviceId, projectId, '   Trimmed text \n ');
    expect(saved.body).toBe('Trimmed text');
    expect((await member.browser.postJson(commentsPath(deviceId, projectId), { body: '  \n ' })).status).toBe(400);
    const tooLong = 'x'.repeat(commentBodyMaxLength + 1);
    expect((await member.browser.postJson(commentsPath(deviceId, projectId), { body: tooLong })).status).toBe(400);
    const longest = 'x'.repeat(commentBodyMaxLength);
    expect((await member.browser.postJson(commentsPath(deviceId, projectId), { body: longest })).status).toBe(201);
  });

  it('refuses a reply to a comment of another project', async () => {
    const elsewhere = await insertProject(server, { deviceId, team: [member.id] });
    const foreign = await postComment(member.browser, deviceId, elsewhere, 'Elsewhere');
    const response = await member.browser.postJson(commentsPath(deviceId, projectId), {
      body: 'Reply',
      parentId: foreign.id,
    });
    expect(await errorOf(response)).toMatchObject({
      status: 404,
      message: 'The comment you reply to does not exist in this project.',
    });
  });
});

describe('edit and delete', () => {
  it('lets the author edit (marked edited) and nobody else', async () => {
    const comment = await postComment(guest.browser, deviceId, projectId, 'Draft wording');
    expect(comment.editedAt).toBeNull();
    expect(comment).toMatchObject({ canEdit: true, canDelete: true });
    const unchanged = await json<{ editedAt: string | null }>(
      await editComment(guest.browser, deviceId, projectId, comment.id, 'Draft wording'),
    );
    expect(unchanged.editedAt).toBeNull();
    const edited = await editComment(guest.browser, deviceId, projectId, comment.id, '  Final wording ');
    expect(edited.status).toBe(200);
    const body = await json<{ body: string; editedAt: string | null }>(edited);
    expect(body.body).toBe('Final wording');
    expect(body.editedAt).not.toBeNull();
    expect(await errorOf(await editComment(admin.browser, deviceId, projectId, comment.id, 'Hijack'))).toMatchObject({
      status: 403,
      message: 'You can edit only your own comments.',
    });
    const asAdmin = (await listComments(admin.browser, deviceId, projectId)).items.find((c) => c.id === comment.id)!;
    expect(asAdmin).toMatchObject({ canEdit: false, canDelete: true });
    const asMember = (await listComments(member.browser, deviceId, projectId)).items.find((c) => c.id === comment.id)!;
    expect(asMember).toMatchObject({ canEdit: false, canDelete: false });
  });

  it('keeps a deleted comment in its thread with the reason, and closes it for edits and replies', async () => {
    const top = await postComment(member.browser, deviceId, projectId, 'Top');
    const reply = await postComment(guest.browser, deviceId, projectId, 'Reply', top.id);
    const own = await deleteComment(member.browser, deviceId, projectId, top.id);
    expect(own.status).toBe(200);
    expect(await json(own)).toMatchObject({ body: '', deleted: 'by_author', canEdit: false, canDelete: false });
    const removed = await deleteComment(admin.browser, deviceId, projectId, reply.id);
    expect(await json(removed)).toMatchObject({ body: '', deleted: 'by_admin' });

    const thread = (await listComments(guest.browser, deviceId, projectId)).items.find((c) => c.id === top.id)!;
    expect(thread).toMatchObject({ deleted: 'by_author', body: '' });
    expect(thread.replies).toMatchObject([{ id: reply.id, deleted: 'by_admin', body: '' }]);

    expect((await editComment(member.browser, deviceId, projectId, top.id, 'Back')).status).toBe(409);
    expect((await deleteComment(member.browser, deviceId, projectId, top.id)).status).toBe(409);
    const late = await member.browser.postJson(commentsPath(deviceId, projectId), { body: 'Late', parentId: top.id });
    expect((await errorOf(late)).code).toBe('comment_deleted');
  });

  it('refuses a member deleting somebody else’s comment', async () => {
    const comment = await postComment(guest.browser, deviceId, projectId, 'Mine');
    expect(await errorOf(await deleteComment(member.browser, deviceId, projectId, comment.id))).toMatchObject({
      status: 403,
      message: 'You can delete only your own comments. Admins can remove any comment.',
    });
  });
});

describe('mentions', () => {
  it('offers the project team to mention', async () => {
    const team = await json<Mentionable>(await member.browser.get(`${commentsPath(deviceId, projectId)}/mentionable`));
    expect(team.items.map((person) => person.userId).sort()).toEqual([admin.id, member.id, guest.id].sort());
  });

  it('notifies each mentioned team member once with a link to the comment, never the author', async () => {
    const body = `${mention(member.id, member.account.fullName)} and ${mention(guest.id, 'Old Name')} please check; ${mention(admin.id, 'me')} ${mention(member.id, member.account.fullName)}`;
    const comment = await postComment(admin.browser, deviceId, projectId, body);
    // The current names are given beside the tokens (a token keeps the name it was written with).
    expect(comment.mentions).toEqual(
      expect.arrayContaining([
        { userId: member.id, fullName: member.account.fullName },
        { userId: guest.id, fullName: guest.account.fullName },
      ]),
    );
    const link = `/projects/view/comments?project=${projectId}&device=${deviceId}&comment=${comment.id}`;
    const toMember = (await notificationsOf(member)).filter((n) => n.link === link);
    expect(toMember).toHaveLength(1);
    expect(toMember[0]!).toMatchObject({
      kind: 'project.comment.mention',
      title: `${admin.account.fullName} mentioned you in the project "Valve study"`,
      body: `@${member.account.fullName} and @Old Name please check; @me @${member.account.fullName}`,
    });
    expect((await notificationsOf(guest)).filter((n) => n.link === link)).toHaveLength(1);
    expect((await notificationsOf(admin)).filter((n) => n.link === link)).toHaveLength(0);
  });

  it('refuses a mention of somebody not on the team, naming them', async () => {
    const response = await member.browser.postJson(commentsPath(deviceId, projectId), {
      body: `Hello ${mention(outsider.id, 'Olga Outside')}`,
    });
    expect(await errorOf(response)).toEqual({
      status: 422,
      code: 'mention_not_on_team',
      message: 'Only members of the project team can be mentioned. Not on the team: Olga Outside.',
    });
    // Outsiders may hold other notifications (joining the workspace); none is about a mention.
    expect((await notificationsOf(outsider)).filter((n) => n.kind === 'project.comment.mention')).toHaveLength(0);
    const unknown = await member.browser.postJson(commentsPath(deviceId, projectId), {
      body: `Hello ${mention('00000000-0000-4000-8000-000000000000', 'Nobody')}`,
    });
    expect(unknown.status).toBe(422);
  });

  it('notifies only people newly mentioned by an edit, and keeps a mention of someone who left the team', async () => {
    const project = await insertProject(server, { deviceId, team: [admin.id, member.id, guest.id] });
    const comment = await postComment(admin.browser, deviceId, project, `Hi ${mention(member.id, 'M')}`);
    const link = `/projects/view/comments?project=${project}&device=${deviceId}&comment=${comment.id}`;
    expect((await notificationsOf(member)).filter((n) => n.link === link)).toHaveLength(1);

    const edited = await editComment(
      admin.browser,
      deviceId,
      project,
      comment.id,
      `Hi ${mention(member.id, 'M')} and ${mention(guest.id, 'G')}`,
    );
    expect(edited.status).toBe(200);
    expect((await notificationsOf(member)).filter((n) => n.link === link)).toHaveLength(1);
    expect((await notificationsOf(guest)).filter((n) => n.link === link)).toHaveLength(1);

    // The member leaves the team: the earlier mention may stay through an edit, a new one may not be added.
    await server.context.db.orm
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, project), eq(projectMembers.userId, member.id)));
    const kept = await editComment(admin.browser, deviceId, project, comment.id, `Bye ${mention(member.id, 'M')}`);
    expect(kept.status).toBe(200);
    const fresh = await admin.browser.postJson(commentsPath(deviceId, project), { body: mention(member.id, 'M') });
    expect(fresh.status).toBe(422);
  });
});
