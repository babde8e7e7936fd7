import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import {
  commentEndpoints as endpoints,
  commentPageSchema,
  commentSchema,
  mentionableSchema,
  type CommentPage,
  type CreateComment,
  type Mentionable,
  type ProjectComment,
  pathOf,
} from '@insilico/contracts';
import { apiCall, apiFetch } from '../../lib/api';
import type { ApiError } from '../../lib/apiError';

/** Threads per page of the Comments tab. */
export const commentPageSize = 20;

const fetchPage = (url: string): Promise<CommentPage> => apiFetch(url, { schema: commentPageSchema });
const fetchMentionable = (url: string): Promise<Mentionable> => apiFetch(url, { schema: mentionableSchema });

/** The threads of a project, page after page (newest first); `null` ids wait. */
export function useCommentPages(deviceId: string | null, projectId: string | null) {
  return useSWRInfinite<CommentPage, ApiError>(
    (index, previous: CommentPage | null) => {
      if (!deviceId || !projectId) return null;
      if (previous && !previous.nextBefore) return null;
      return pathOf(endpoints.list, { deviceId, projectId }, { limit: commentPageSize, before: previous?.nextBefore });
    },
    fetchPage,
    // Every page again after a change: a new comment moves the page boundaries.
    { revalidateAll: true, revalidateFirstPage: false },
  );
}

/** The project team, whom a comment can mention. */
export function useMentionable(deviceId: string | null, projectId: string | null) {
  return useSWR<Mentionable, ApiError>(
    deviceId && projectId ? pathOf(endpoints.mentionable, { deviceId, projectId }) : null,
    fetchMentionable,
  );
}

export function postComment(deviceId: string, projectId: string, body: CreateComment): Promise<ProjectComment> {
  return apiCall(endpoints.create, { deviceId, projectId }, { body, schema: commentSchema });
}

export function editComment(
  deviceId: string,
  projectId: string,
  commentId: string,
  body: string,
): Promise<ProjectComment> {
  return apiCall(endpoints.edit, { deviceId, projectId, commentId }, { body: { body }, schema: commentSchema });
}

export function deleteComment(deviceId: string, projectId: string, commentId: string): Promise<ProjectComment> {
  return apiCall(endpoints.remove, { deviceId, projectId, commentId }, { schema: commentSchema });
}
