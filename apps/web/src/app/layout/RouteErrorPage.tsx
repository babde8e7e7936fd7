import { useEffect, useState } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import Button from '@mui/material/Button';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { FullPageStatus } from '../../components/FullPageStatus';
import { isChunkLoadError, showNoticeIfInMaintenance } from '../../lib/maintenance';

/**
 * Shown when a page throws while rendering, instead of a blank screen. A part of the app that failed to load is
 * most often the maintenance gate answering 503 for the file: then the user goes to the maintenance notice, not to
 * "Failed to fetch dynamically imported module" (issue 14).
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  const [checking, setChecking] = useState(chunk);
  useEffect(() => {
    if (!chunk) return;
    let current = true;
    void showNoticeIfInMaintenance().then((leaving) => {
      if (current && !leaving) setChecking(false);
    });
    return () => {
      current = false;
    };
  }, [chunk]);

  if (checking) return <FullPageStatus busy title="Loading the workspace…" />;

  const detail = chunk
    ? 'a part of the workspace could not be loaded. The workspace may have been updated, or the connection dropped.'
    : isRouteErrorResponse(error)
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
