// The settings pages' load states are the shared ones (also used by team and add device).
export { Loading, LoadFailure } from '../../../components/LoadState';
