import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ScrollToTop } from './ScrollToTop';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ScrollToTop', () => {
  it('scrolls to the top when the path changes, not when only the query does', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const router = createMemoryRouter([{ path: '*', element: <ScrollToTop /> }], {
      initialEntries: ['/projects/overview'],
    });
    render(<RouterProvider router={router} />);
    expect(scrollTo).toHaveBeenCalledTimes(1);

    await act(() => router.navigate('/help'));
    expect(scrollTo).toHaveBeenCalledTimes(2);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    await act(() => router.navigate('/help?tab=chat'));
    expect(scrollTo).toHaveBeenCalledTimes(2);
  });
});
