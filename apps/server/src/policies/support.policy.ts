/**
 * Who may do what with support requests. A request is its author's and support staff's business
 * only: to anybody else it does not exist (404, never 403, so ids reveal nothing). The support
 * inbox is for support staff (`users.is_support`, set by an operator, never through the API).
 */
export interface SupportViewer {
  id: string;
  isSupport: boolean;
}

export type SupportAction =
  /** Read a request, its thread and screenshot. */
  | 'request.read'
  /** Add a follow-up to one's own request. */
  | 'request.reply'
  /** List the inbox, answer, close. */
  | 'inbox.work';

export function maySupport(action: SupportAction, viewer: SupportViewer, request: { userId: string } | null): boolean {
  switch (action) {
    case 'request.read':
      return request !== null && (request.userId === viewer.id || viewer.isSupport);
    case 'request.reply':
      return request !== null && request.userId === viewer.id;
    case 'inbox.work':
      return viewer.isSupport;
  }
}

export const supportInboxRefusal = 'The support inbox is for support staff only.';
