// The Comments tab of the project view (mounted by features/projects on /projects/view/comments).
export { ProjectCommentsTab } from './components/ProjectCommentsTab';
