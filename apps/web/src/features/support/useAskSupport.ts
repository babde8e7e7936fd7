import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/** The drawer lives in the URL (`?drawer=ask-support`): Back closes it and a link can open it. */
export const drawerParam = 'drawer';
export const askSupportDrawer = 'ask-support';
/** What a page asks support about, prefilled into the drawer's fields (`&supportSubject=&supportMessage=`). */
const subjectParam = 'supportSubject';
const messageParam = 'supportMessage';

export interface AskSupportPrefill {
  subject: string;
  message: string;
}

/** Opens and closes the ask-support drawer (spec §2 side panels) from any page, optionally prefilled. */
export function useAskSupport() {
  const [params, setParams] = useSearchParams();
  const isOpen = params.get(drawerParam) === askSupportDrawer;
  const subject = params.get(subjectParam);
  const message = params.get(messageParam);
  const prefill = useMemo<AskSupportPrefill | null>(
    () => (subject !== null || message !== null ? { subject: subject ?? '', message: message ?? '' } : null),
    [subject, message],
  );
  const openWith = useCallback(
    (withText: AskSupportPrefill | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(drawerParam, askSupportDrawer);
        next.delete(subjectParam);
        next.delete(messageParam);
        if (withText) {
          next.set(subjectParam, withText.subject);
          next.set(messageParam, withText.message);
        }
        return next;
      }),
    [setParams],
  );
  /** Opens the drawer empty (usable as a click handler). */
  const open = useCallback(() => openWith(null), [openWith]);
  /** Opens the drawer with the subject and message a page asks about. */
  const openPrefilled = useCallback((withText: AskSupportPrefill) => openWith(withText), [openWith]);
  const close = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(drawerParam);
          next.delete(subjectParam);
          next.delete(messageParam);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { isOpen, open, openPrefilled, close, prefill };
}
