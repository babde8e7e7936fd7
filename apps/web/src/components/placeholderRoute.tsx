import type { RouteObject } from 'react-router';
import type { PlaceholderPageProps } from './PlaceholderPage';

/** The title and the lazily loaded `PlaceholderPage` of a route whose feature is not built yet. */
export function placeholderElement(page: PlaceholderPageProps): Pick<RouteObject, 'lazy' | 'handle'> {
  return {
    lazy: async () => {
      const { PlaceholderPage } = await import('./PlaceholderPage');
      return { element: <PlaceholderPage {...page} /> };
    },
    handle: { title: page.title },
  };
}

/** A route that shows `PlaceholderPage` until its feature is built. */
export function placeholderRoute(path: string, page: PlaceholderPageProps): RouteObject {
  return { path, ...placeholderElement(page) };
}
