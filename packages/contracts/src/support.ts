import { z } from 'zod';
import { endpoint } from './endpoint';
import { pictureQuerySchema } from './pictures';
import { text } from './text';

/** open: waiting for support; answered: support replied; closed: done (a new question is a new request). */
export const supportRequestStatuses = ['open', 'answered', 'closed'] as const;
export const supportRequestStatusSchema = z.enum(supportRequestStatuses);
export type SupportRequestStatus = z.infer<typeof supportRequestStatusSchema>;

export const supportRequestStatusLabels: Record<SupportRequestStatus, string> = {
  open: 'Open',
  answered: 'Answered',
  closed: 'Closed',
};

export const supportSubjectMaxLength = 150;
export const supportMessageMaxLength = 5000;

/** Trimmed text between 1 and `max` characters, with a message a person understands. */
function requiredText(label: string, max: number) {
  return text().trim().min(1, `Please enter a ${label}.`).max(max, `The ${label} can have at most ${max} characters.`);
}

/** `GET /api/support/me`: what the help page and the shell need. */
export const supportContextSchema = z.object({
  /** Support staff see the support inbox (a flag set by an operator, never through the API). */
  isSupportStaff: z.boolean(),
  /** Where support can be reached by e-mail (config SUPPORT_EMAIL). */
  supportEmail: text(),
});
export type SupportContext = z.infer<typeof supportContextSchema>;

/** `PUT /api/support/screenshot` (the image as the raw body): the screenshot of the request being written. */
export const supportScreenshotSchema = z.object({
  screenshotId: text(),
  width: z.number().int(),
  height: z.number().int(),
});
export type SupportScreenshot = z.infer<typeof supportScreenshotSchema>;

/** `POST /api/support/requests` (the ask-support drawer). */
export const createSupportRequestSchema = z.object({
  subject: requiredText('subject', supportSubjectMaxLength),
  message: requiredText('message', supportMessageMaxLength),
  /** The screenshot uploaded before through `PUT /api/support/screenshot`. */
  screenshotId: z.uuid().nullable().optional(),
});
export type CreateSupportRequest = z.input<typeof createSupportRequestSchema>;

/** A reply in a request's thread: the user's follow-up or a support answer. */
export const supportReplySchema = z.object({ body: requiredText('message', supportMessageMaxLength) });
export type SupportReply = z.input<typeof supportReplySchema>;

export const supportRequestParamsSchema = z.object({ requestId: z.uuid() });

export const supportMessageSchema = z.object({
  messageId: text(),
  fromSupport: z.boolean(),
  /** Who wrote it; support answers show as "Support" to the user. */
  authorName: text(),
  body: text(),
  createdAt: text(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const supportRequestSummarySchema = z.object({
  requestId: text(),
  subject: text(),
  status: supportRequestStatusSchema,
  createdAt: text(),
  updatedAt: text(),
  /** Answers and follow-ups after the request itself. */
  replies: z.number().int(),
  user: z.object({ userId: text(), fullName: text(), email: text() }),
  /** The workspace selected when the request was sent; null before onboarding (or when deleted). */
  device: z.object({ deviceId: text(), deviceName: text() }).nullable(),
});
export type SupportRequestSummary = z.infer<typeof supportRequestSummarySchema>;

export const supportRequestSchema = supportRequestSummarySchema.extend({
  message: text(),
  /** Relative URL of the screenshot (add `?size=thumb` for the small one), or null. */
  screenshotUrl: text().nullable(),
  messages: z.array(supportMessageSchema),
});
export type SupportRequest = z.infer<typeof supportRequestSchema>;

export const supportRequestListSchema = z.object({ items: z.array(supportRequestSummarySchema) });
export type SupportRequestList = z.infer<typeof supportRequestListSchema>;

/** `GET /api/support/inbox?status=` (support staff); open requests by default. */
export const supportInboxQuerySchema = z.object({
  status: z.enum([...supportRequestStatuses, 'all']).default('open'),
});
export type SupportInboxQuery = z.input<typeof supportInboxQuerySchema>;

const screenshotPath = '/api/support/screenshot';
const requestsPath = '/api/support/requests';
const requestPath = `${requestsPath}/:requestId`;
const inboxPath = '/api/support/inbox';
const inboxRequestPath = `${inboxPath}/:requestId`;
const params = supportRequestParamsSchema;

/**
 * Ask support (the drawer, "Your requests" on /help) and the support inbox of support staff
 * (docs/decisions/endpoints-in-contracts.md). The screenshot is uploaded as the raw body, like a picture.
 */
export const supportEndpoints = {
  context: endpoint({ method: 'GET', path: '/api/support/me', response: { 200: supportContextSchema } }),
  uploadScreenshot: endpoint({ method: 'PUT', path: screenshotPath, response: { 200: supportScreenshotSchema } }),
  discardScreenshot: endpoint({ method: 'DELETE', path: screenshotPath }),
  create: endpoint({
    method: 'POST',
    path: requestsPath,
    body: createSupportRequestSchema,
    response: { 201: supportRequestSchema },
  }),
  listOwn: endpoint({ method: 'GET', path: requestsPath, response: { 200: supportRequestListSchema } }),
  get: endpoint({ method: 'GET', path: requestPath, params, response: { 200: supportRequestSchema } }),
  reply: endpoint({
    method: 'POST',
    path: `${requestPath}/messages`,
    params,
    body: supportReplySchema,
    response: { 200: supportRequestSchema },
  }),
  screenshot: endpoint({ method: 'GET', path: `${requestPath}/screenshot`, params, query: pictureQuerySchema }),
  inbox: endpoint({
    method: 'GET',
    path: inboxPath,
    query: supportInboxQuerySchema,
    response: { 200: supportRequestListSchema },
  }),
  inboxRequest: endpoint({ method: 'GET', path: inboxRequestPath, params, response: { 200: supportRequestSchema } }),
  answer: endpoint({
    method: 'POST',
    path: `${inboxRequestPath}/answers`,
    params,
    body: supportReplySchema,
    response: { 200: supportRequestSchema },
  }),
  close: endpoint({
    method: 'POST',
    path: `${inboxRequestPath}/close`,
    params,
    response: { 200: supportRequestSchema },
  }),
};
