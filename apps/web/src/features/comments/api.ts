import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import {
  commentPageSchema,
  commentSchema,
  mentionableSchema,
  type CommentPage,
  type CreateComment,
  type Mentionable,
  type ProjectComment,
} from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** Threads per page of the Comments tab. */
export const commentPageSize = 20;

export const commentsUrl = (deviceId: string, projectId: string) =>
  `/api/devices/${deviceId}/projects/${projectId}/comments`;

const fetchPage = (url: string): Promise<CommentPage> => apiFetch(url, { schema: commentPageSchema });
const fetchMentionable = (url: string): Promise<Mentionable> => apiFetch(url, { schema: mentionableSchema });

/** The threads of a project, page after page (newest first); `null` ids wait. */
export function useCommentPages(deviceId: string | null, projectId: string | null) {
  return useSWRInfinite<CommentPage, ApiError>(
    (index, previous: CommentPage | null) => {
      if (!deviceId || !projectId) return null;
      if (previous && !previous.nextBefore) return null;
      const before = previous?.nextBefore ? `&before=${previous.nextBefore}` : '';
      return `${commentsUrl(deviceId, projectId)}?limit=${commentPageSize}${before}`;
    },
    fetchPage,
    // Every page again after a change: a new comment moves the page boundaries.
    { revalidateAll: true, revalidateFirstPage: false },
  );
}

/** The project team, whom a comment can mention. */
export function useMentionable(deviceId: string | null, projectId: string | null) {
  return useSWR<Mentionable, ApiError>(
    deviceId && projectId ? `${commentsUrl(deviceId, projectId)}/mentionable` : null,
    fetchMentionable,
  );
}

export function postComment(deviceId: string, projectId: string, body: CreateComment): Promise<ProjectComment> {
  return apiFetch(commentsUrl(deviceId, projectId), { method: 'POST', body, schema: commentSchema });
}

export function editComment(
  deviceId: string,
  projectId: string,
  commentId: string,
  body: string,
): Promise<ProjectComment> {
  return apiFetch(`${commentsUrl(deviceId, projectId)}/${commentId}`, {
    method: 'PATCH',
    body: { body },
    schema: commentSchema,
  });
}

export function deleteComment(deviceId: string, projectId: string, commentId: string): Promise<ProjectComment> {
  return apiFetch(`${commentsUrl(deviceId, projectId)}/${commentId}`, { method: 'DELETE', schema: commentSchema });
}
