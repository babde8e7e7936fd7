import useSWR, { preload } from 'swr';
import {
  isPathOf,
  pathOf,
  supportContextSchema,
  supportEndpoints as endpoints,
  supportRequestListSchema,
  supportRequestSchema,
  supportScreenshotSchema,
  type CreateSupportRequest,
  type SupportContext,
  type SupportRequest,
  type SupportRequestList,
  type SupportRequestStatus,
  type SupportScreenshot,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** SWR keys (and URLs). */
export const supportContextKey = pathOf(endpoints.context, {});
export const myRequestsKey = pathOf(endpoints.listOwn, {});
export const requestKey = (requestId: string) => pathOf(endpoints.get, { requestId });
export const inboxKey = (status: SupportRequestStatus | 'all') => pathOf(endpoints.inbox, {}, { status });
export const inboxRequestKey = (requestId: string) => pathOf(endpoints.inboxRequest, { requestId });
/** Whether an SWR key is one of the inbox's lists (any status). */
export const isInboxKey = (key: unknown) => typeof key === 'string' && isPathOf(endpoints.inbox, key);

const fetchContext = (url: string): Promise<SupportContext> =>
  apiFetch(url, { schema: supportContextSchema, redirectOnUnauthenticated: false });
const fetchList = (url: string): Promise<SupportRequestList> => apiFetch(url, { schema: supportRequestListSchema });
const fetchRequest = (url: string): Promise<SupportRequest> => apiFetch(url, { schema: supportRequestSchema });

/** `GET /api/support/me`: whether the user is support staff, and the support e-mail. */
export function useSupportContext() {
  return useSWR<SupportContext, ApiError>(supportContextKey, fetchContext);
}

let contextPreloaded = false;

/**
 * Asks for the support context ahead of its first use (the help menu, before it opens); once per page load, since
 * SWR hands a preloaded answer to the next hook that asks, however old.
 */
export function preloadSupportContext(): void {
  if (contextPreloaded) return;
  contextPreloaded = true;
  void preload(supportContextKey, fetchContext).catch(() => undefined);
}

/** `GET /api/support/requests`: the signed-in user's own requests. */
export function useMyRequests() {
  return useSWR<SupportRequestList, ApiError>(myRequestsKey, fetchList);
}

/** One request with its thread (author's view); `null` waits. */
export function useMyRequest(requestId: string | null) {
  return useSWR<SupportRequest, ApiError>(requestId ? requestKey(requestId) : null, fetchRequest);
}

/** `GET /api/support/inbox?status=` (support staff). */
export function useInbox(status: SupportRequestStatus | 'all') {
  return useSWR<SupportRequestList, ApiError>(inboxKey(status), fetchList);
}

export function useInboxRequest(requestId: string) {
  return useSWR<SupportRequest, ApiError>(inboxRequestKey(requestId), fetchRequest);
}

/** `PUT /api/support/screenshot` with the file as the body: checked by the server like a picture. */
export function uploadScreenshot(file: File): Promise<SupportScreenshot> {
  return apiCall(endpoints.uploadScreenshot, {}, { file, schema: supportScreenshotSchema });
}

/** Discards the screenshot attached to the request being written. */
export function discardScreenshot(): Promise<undefined> {
  return apiCall(endpoints.discardScreenshot, {});
}

export function sendRequest(request: CreateSupportRequest): Promise<SupportRequest> {
  return apiCall(endpoints.create, {}, { body: request, schema: supportRequestSchema });
}

/** The author's follow-up (the request is open again). */
export function sendReply(requestId: string, body: string): Promise<SupportRequest> {
  return apiCall(endpoints.reply, { requestId }, { body: { body }, schema: supportRequestSchema });
}

/** Support staff: answer (mailed to the user, who is notified). */
export function sendAnswer(requestId: string, body: string): Promise<SupportRequest> {
  return apiCall(endpoints.answer, { requestId }, { body: { body }, schema: supportRequestSchema });
}

export function closeRequest(requestId: string): Promise<SupportRequest> {
  return apiCall(endpoints.close, { requestId }, { body: {}, schema: supportRequestSchema });
}
