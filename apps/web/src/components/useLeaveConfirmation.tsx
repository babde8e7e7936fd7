import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** Spec §8 "Leaving a page". */
export const leavePageMessage = 'Are you sure you want to leave the page? Your progress will be lost.';

export interface LeaveConfirmation {
  /** The Stay/Leave dialog; render it. */
  dialog: ReactNode;
  /** Lets the next navigation through without asking (after the input was saved). */
  allowNextNavigation: () => void;
}

export interface LeaveConfirmationOptions {
  /**
   * A flow of several pages that share the unsaved progress (e.g. `/upload-images`): moving between its pages does
   * not ask, only leaving it does.
   */
  within?: string;
}

/** Whether `pathname` is `base` or one of its sub-paths. */
const isUnder = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/**
 * While `dirty`, leaving the page asks first (spec §4 "Leaving a page"): navigation inside the app
 * shows a dialog with Stay and Leave (react-router's `useBlocker`, which needs the data router);
 * closing or reloading the tab gets the browser's own `beforeunload` question (browsers do not
 * show a page's text there).
 */
export function useLeaveConfirmation(dirty: boolean, { within }: LeaveConfirmationOptions = {}): LeaveConfirmation {
  const dirtyRef = useRef(dirty);
  const bypassRef = useRef(false);

  useEffect(() => {
    dirtyRef.current = dirty;
    if (dirty) bypassRef.current = false;
  }, [dirty]);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => {
      if (!dirtyRef.current) return false;
      if (bypassRef.current) {
        bypassRef.current = false;
        return false;
      }
      if (within !== undefined && isUnder(nextLocation.pathname, within)) return false;
      return currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search;
    },
    [within],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const allowNextNavigation = useCallback(() => {
    bypassRef.current = true;
  }, []);

  const open = blocker.state === 'blocked';
  const dialog = (
    <Dialog
      open={open}
      onClose={() => blocker.reset?.()}
      aria-labelledby="leave-page-title"
      aria-describedby="leave-page-text"
    >
      <DialogTitle id="leave-page-title">Leave the page?</DialogTitle>
      <DialogContent>
        <DialogContentText id="leave-page-text">{leavePageMessage}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={() => blocker.reset?.()} autoFocus>
          Stay
        </Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
      </DialogActions>
    </Dialog>
  );

  return { dialog, allowNextNavigation };
}
