import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import Button from '@mui/material/Button';
import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { FullPageStatus } from '../../components/FullPageStatus';
import { assignLocation, loginUrl } from '../../lib/browserLocation';
import { useUser } from './userContext';

/**
 * A page that needs a signed-in user (spec §4 Session): a quiet placeholder while loading, the
 * login redirect (returning to this path and query) when there is no user, an error placeholder
 * with Retry when the profile call failed, and the page itself with a user.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user, error, isLoading, isValidating, retry } = useUser();
  const { pathname, search } = useLocation();
  const mustSignIn = user === null && !error && !isLoading;

  useEffect(() => {
    if (mustSignIn) assignLocation(loginUrl(pathname + search));
  }, [mustSignIn, pathname, search]);

  if (user) return children;

  if (error) {
    const offline = error.status === 0;
    return (
      <FullPageStatus
        role="alert"
        icon={
          offline ? (
            <CloudOffOutlinedIcon color="error" sx={{ fontSize: 40 }} />
          ) : (
            <ErrorOutlineIcon color="error" sx={{ fontSize: 40 }} />
          )
        }
        title="We could not check your sign-in"
        message={
          offline
            ? 'The server could not be reached (status 0). Check your connection, then try again.'
            : `The server answered with status ${error.status}. ${error.message}`
        }
        actions={
          <Button variant="contained" onClick={retry} disabled={isValidating}>
            {isValidating ? 'Retrying…' : 'Retry'}
          </Button>
        }
      />
    );
  }

  return <FullPageStatus busy title={mustSignIn ? 'Redirecting to sign-in…' : 'Signing you in…'} />;
}
