import { randomUUID } from 'node:crypto';
import { pathOf, supportEndpoints } from '@insilico/contracts';
import type {
  PictureSize,
  SupportContext,
  SupportRequest,
  SupportRequestList,
  SupportRequestStatus,
  SupportRequestSummary,
  SupportScreenshot,
} from '@insilico/contracts';
import { maySupport, supportInboxRefusal, type SupportAction } from '../policies/support.policy';
import type { BlobStore, DataRegion } from '../repositories/blob.repository';
import type {
  StoredFileRow,
  SupportMessageView,
  SupportPerson,
  SupportRequestView,
} from '../repositories/support.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { ServiceError } from './errors';
import type { NotificationService } from './notification.service';
import { pictureExtensions, processPicture } from './picture-processing';
import type { PictureContent, UploadReader } from './picture.service';

export interface SupportServiceDeps {
  unitOfWork: UnitOfWork;
  notifications: NotificationService;
  blobs: BlobStore;
  /** The public origin: links in mails point there. */
  publicUrl: string;
  /** Where new requests and follow-ups are mailed (config SUPPORT_EMAIL). */
  supportEmail: string;
  log: { warn(details: object, message: string): void };
}

/** A request as the drawer sends it, already checked by its contract schema. */
export interface NewSupportRequest {
  subject: string;
  message: string;
  screenshotId?: string | null | undefined;
}

/** The web pages links point to (see docs/decisions/support-requests.md). */
export const supportInboxPath = '/support-inbox';
export const helpPath = '/help';

const notFound = () => new ServiceError(404, 'not_found', 'No such support request.');
const closedRefusal = () =>
  new ServiceError(409, 'request_closed', 'This request is closed. Send a new request if you need more help.');

/**
 * Support requests (the ask-support drawer) and the support inbox. A request is stored with its
 * thread and optional screenshot and mailed to the support address; an answer is mailed to the
 * user and notifies them. Who sees what is decided by the support policy.
 */
export class SupportService {
  constructor(private readonly deps: SupportServiceDeps) {}

  async context(userId: string): Promise<SupportContext> {
    const person = await this.person(userId);
    return { isSupportStaff: person.isSupport, supportEmail: this.deps.supportEmail };
  }

  /**
   * Keeps a screenshot for the request the user is writing: checked and re-encoded like a picture
   * (JPEG or PNG by content, at most 5120 KB). A user has one unsent screenshot: a new one replaces it.
   */
  async uploadScreenshot(userId: string, upload: UploadReader): Promise<SupportScreenshot> {
    const picture = await processPicture(await upload());
    const region = (await this.deps.unitOfWork.repositories.support.selectedDevice(userId))?.region ?? 'eu';
    const name = `support/${randomUUID()}`;
    const extension = pictureExtensions[picture.format];
    const storageKey = `${name}.${extension}`;
    const thumbnailKey = `${name}-thumb.${extension}`;
    await this.deps.blobs.put(region, storageKey, picture.full.bytes);
    await this.deps.blobs.put(region, thumbnailKey, picture.thumbnail.bytes);
    let replaced: StoredFileRow[] = [];
    let stored: StoredFileRow;
    try {
      stored = await this.deps.unitOfWork.run(async ({ support }) => {
        replaced = await support.unsentScreenshots(userId, { lock: true });
        await support.deleteFiles(replaced.map((file) => file.id));
        return support.insertScreenshot({
          uploadedBy: userId,
          region,
          storageKey,
          thumbnailKey,
          contentType: picture.contentType,
          bytes: picture.full.bytes.length,
          width: picture.full.width,
          height: picture.full.height,
        });
      });
    } catch (error) {
      await this.removeBytes([{ region, storageKey, thumbnailKey }]);
      throw error;
    }
    await this.removeBytes(replaced);
    return { screenshotId: stored.id, width: picture.full.width, height: picture.full.height };
  }

  /** Removes the screenshot the user attached but did not send (nothing to remove is fine). */
  async discardScreenshot(userId: string): Promise<void> {
    const removed = await this.deps.unitOfWork.run(async ({ support }) => {
      const unsent = await support.unsentScreenshots(userId, { lock: true });
      await support.deleteFiles(unsent.map((file) => file.id));
      return unsent;
    });
    await this.removeBytes(removed);
  }

  /** A request from the user; it names the workspace given, or else the one the user has selected. */
  async create(userId: string, input: NewSupportRequest, options: { deviceId?: string } = {}): Promise<SupportRequest> {
    const person = await this.person(userId);
    const selected = options.deviceId
      ? { deviceId: options.deviceId }
      : await this.deps.unitOfWork.repositories.support.selectedDevice(userId);
    const created = await this.deps.unitOfWork.run(async ({ support, mail }) => {
      let screenshotFileId: string | null = null;
      if (input.screenshotId) {
        const unsent = await support.unsentScreenshots(userId, { lock: true });
        if (!unsent.some((file) => file.id === input.screenshotId))
          throw new ServiceError(
            404,
            'screenshot_not_found',
            'The screenshot is no longer there. Attach it again, or send the request without it.',
          );
        screenshotFileId = input.screenshotId;
      }
      const request = await support.insertRequest({
        userId,
        deviceId: selected?.deviceId ?? null,
        subject: input.subject,
        message: input.message,
        screenshotFileId,
      });
      const view = (await support.findRequest(request.id))!;
      await mail.insert({
        to: this.deps.supportEmail,
        subject: `[Support] ${input.subject}`,
        text: [
          `${person.fullName} (${person.email}) asks for help${view.deviceName ? ` in the device workspace "${view.deviceName}"` : ''}.`,
          '',
          input.message,
          '',
          ...(screenshotFileId ? ['A screenshot is attached in the support inbox.', ''] : []),
          `Answer in the support inbox: ${this.deps.publicUrl}${supportInboxPath}/${request.id}`,
        ].join('\n'),
      });
      return request.id;
    });
    return this.detail(created);
  }

  async listOwn(userId: string): Promise<SupportRequestList> {
    const rows = await this.deps.unitOfWork.repositories.support.listForUser(userId);
    return { items: rows.map(toSummary) };
  }

  /** A request for its author or support staff; 404 for anybody else. */
  async get(userId: string, requestId: string): Promise<SupportRequest> {
    await this.authorize('request.read', userId, requestId);
    return this.detail(requestId);
  }

  /** The author's follow-up: the request is open again and support hears of it by mail. */
  async reply(userId: string, requestId: string, body: string): Promise<SupportRequest> {
    await this.authorize('request.reply', userId, requestId);
    const person = await this.person(userId);
    await this.deps.unitOfWork.run(async ({ support, mail }) => {
      const request = await support.findRequest(requestId, { lock: true });
      if (!request) throw notFound();
      if (request.status === 'closed') throw closedRefusal();
      await support.insertMessage({ requestId, authorId: userId, fromSupport: false, body });
      await support.setStatus(requestId, 'open');
      await mail.insert({
        to: this.deps.supportEmail,
        subject: `[Support] Re: ${request.subject}`,
        text: [
          `${person.fullName} (${person.email}) added to the request "${request.subject}":`,
          '',
          body,
          '',
          `Answer in the support inbox: ${this.deps.publicUrl}${supportInboxPath}/${requestId}`,
        ].join('\n'),
      });
    });
    return this.detail(requestId);
  }

  /** The support inbox: requests with a status (`all`: every one), the longest waiting first. */
  async inbox(userId: string, status: SupportRequestStatus | 'all'): Promise<SupportRequestList> {
    await this.authorizeInbox(userId);
    const rows = await this.deps.unitOfWork.repositories.support.listByStatus(status === 'all' ? null : status);
    return { items: rows.map(toSummary) };
  }

  /** A request as the inbox opens it (support staff only: 403 for anybody else). */
  async inboxRequest(userId: string, requestId: string): Promise<SupportRequest> {
    await this.authorizeInbox(userId);
    return this.detail(requestId);
  }

  /** Support staff answer: mailed to the user, who is also notified in the workspace. */
  async answer(userId: string, requestId: string, body: string): Promise<SupportRequest> {
    await this.authorizeInbox(userId);
    const { request, messageId } = await this.deps.unitOfWork.run(async ({ support, mail }) => {
      const found = await support.findRequest(requestId, { lock: true });
      if (!found) throw notFound();
      if (found.status === 'closed') throw closedRefusal();
      const message = await support.insertMessage({ requestId, authorId: userId, fromSupport: true, body });
      await support.setStatus(requestId, 'answered');
      await mail.insert({
        to: found.userEmail,
        subject: `Re: ${found.subject}`,
        text: [
          `Support answered your request "${found.subject}":`,
          '',
          body,
          '',
          `Read the whole conversation and reply: ${this.deps.publicUrl}${helpPath}?request=${requestId}`,
        ].join('\n'),
      });
      return { request: found, messageId: message.id };
    });
    // After the commit; keyed by the answer, so a retried call never notifies twice.
    await this.deps.notifications.post({
      userId: request.userId,
      kind: 'support.answered',
      title: `Support answered: ${shorten(request.subject, 80)}`,
      body: shorten(body, 200),
      link: `${helpPath}?request=${requestId}`,
      dedupeKey: `support-answer:${messageId}`,
    });
    return this.detail(requestId);
  }

  async close(userId: string, requestId: string): Promise<SupportRequest> {
    await this.authorizeInbox(userId);
    await this.deps.unitOfWork.run(async ({ support }) => {
      const request = await support.findRequest(requestId, { lock: true });
      if (!request) throw notFound();
      if (request.status !== 'closed') await support.setStatus(requestId, 'closed');
    });
    return this.detail(requestId);
  }

  /** The screenshot of a request, for its author and support staff. */
  async screenshot(userId: string, requestId: string, size: PictureSize): Promise<PictureContent> {
    const request = await this.authorize('request.read', userId, requestId);
    const file = request.screenshotFileId
      ? await this.deps.unitOfWork.repositories.support.findFile(request.screenshotFileId)
      : null;
    if (!file) throw new ServiceError(404, 'not_found', 'This request has no screenshot.');
    const key = size === 'thumb' && file.thumbnailKey ? file.thumbnailKey : file.storageKey;
    const bytes = await this.deps.blobs.get(file.region, key);
    if (!bytes) throw new ServiceError(404, 'not_found', 'This request has no screenshot.');
    return { bytes, contentType: file.contentType, version: file.id };
  }

  private async person(userId: string): Promise<SupportPerson> {
    const person = await this.deps.unitOfWork.repositories.support.person(userId);
    if (!person) throw new ServiceError(401, 'unauthenticated', 'Please sign in again.');
    return person;
  }

  private async authorize(action: SupportAction, userId: string, requestId: string): Promise<SupportRequestView> {
    const person = await this.person(userId);
    const request = await this.deps.unitOfWork.repositories.support.findRequest(requestId);
    if (!request || !maySupport(action, person, request)) throw notFound();
    return request;
  }

  private async authorizeInbox(userId: string): Promise<void> {
    if (!maySupport('inbox.work', await this.person(userId), null))
      throw new ServiceError(403, 'forbidden', supportInboxRefusal);
  }

  private async detail(requestId: string): Promise<SupportRequest> {
    const support = this.deps.unitOfWork.repositories.support;
    const request = await support.findRequest(requestId);
    if (!request) throw notFound();
    const messages = await support.messages(requestId);
    return {
      ...toSummary(request),
      message: request.message,
      screenshotUrl: request.screenshotFileId
        ? pathOf(supportEndpoints.screenshot, { requestId: request.id }, { v: request.screenshotFileId })
        : null,
      messages: messages.map(toMessage),
    };
  }

  private async removeBytes(files: { region: DataRegion; storageKey: string; thumbnailKey: string | null }[]) {
    for (const file of files)
      for (const key of [file.storageKey, file.thumbnailKey]) {
        if (!key) continue;
        try {
          await this.deps.blobs.delete(file.region, key);
        } catch (error) {
          // The row is gone, so the bytes are unreachable; an operator may remove them.
          this.deps.log.warn({ err: error, key }, 'screenshot bytes could not be removed');
        }
      }
  }
}

function toSummary(row: SupportRequestView): SupportRequestSummary {
  return {
    requestId: row.id,
    subject: row.subject,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    replies: row.replies,
    user: { userId: row.userId, fullName: row.userFullName, email: row.userEmail },
    device: row.deviceId && row.deviceName ? { deviceId: row.deviceId, deviceName: row.deviceName } : null,
  };
}

function toMessage(row: SupportMessageView) {
  return {
    messageId: row.id,
    fromSupport: row.fromSupport,
    authorName: row.fromSupport ? 'Support' : (row.authorName ?? 'Former user'),
    body: row.body,
    createdAt: row.createdAt.toISOString(),
  };
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
