// The Comments tab of the project view (mounted by features/projects on /projects/view/comments), loaded on first
// visit.
export const projectCommentsTab = async () => ({
  Component: (await import('./components/ProjectCommentsTab')).ProjectCommentsTab,
});
