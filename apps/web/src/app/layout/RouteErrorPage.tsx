import { isRouteErrorResponse, useRouteError } from 'react-router';
import Button from '@mui/material/Button';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { FullPageStatus } from '../../components/FullPageStatus';

/** Shown when a page throws while rendering, instead of a blank screen. */
export function RouteErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'An unexpected error occurred.';

  return (
    <FullPageStatus
      role="alert"
      icon={<ErrorOutlineIcon color="error" sx={{ fontSize: 40 }} />}
      title="Something went wrong"
      message={`This page could not be shown: ${detail}`}
      actions={
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      }
    />
  );
}
