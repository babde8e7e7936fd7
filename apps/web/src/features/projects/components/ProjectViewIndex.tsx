import { Navigate, useLocation } from 'react-router';

/** `/projects/view` opens the Stats tab, keeping `?project=` (a plain redirect would drop the query). */
export function ProjectViewIndex() {
  const { search } = useLocation();
  return <Navigate to={{ pathname: 'stats', search }} replace />;
}
