import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';

/** Spec §2: the selected page starts at the top. Query-only changes (filters) keep the scroll position. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
