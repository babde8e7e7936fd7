import type { RouteObject } from 'react-router';
import { PlaceholderPage, type PlaceholderPageProps } from './PlaceholderPage';

/** A route that shows `PlaceholderPage` until its feature is built. */
export function placeholderRoute(path: string, page: PlaceholderPageProps): RouteObject {
  return { path, element: <PlaceholderPage {...page} />, handle: { title: page.title } };
}
