import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The drawer lives in the URL (`?drawer=ask-support`): Back closes it and a link can open it. */
export const drawerParam = 'drawer';
export const askSupportDrawer = 'ask-support';

/** Opens and closes the ask-support drawer (spec §2 side panels) from any page. */
export function useAskSupport() {
  const [params, setParams] = useSearchParams();
  const isOpen = params.get(drawerParam) === askSupportDrawer;
  const open = useCallback(
    () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(drawerParam, askSupportDrawer);
        return next;
      }),
    [setParams],
  );
  const close = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(drawerParam);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { isOpen, open, close };
}
