/**
 * A page's route for the 'page viewed' event: lowercase words stay, any other segment (ids, names) becomes `:id`,
 * so no name or free text from a path is recorded.
 */
export function routePattern(pathname: string): string {
  const segments = pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (/^[a-z]+(-[a-z]+)*$/.test(segment) && segment.length <= 40 ? segment : ':id'));
  return `/${segments.join('/')}`;
}
