import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
// RouterProvider from 'react-router' (see routes.test.tsx): one copy of the router context.
import { createMemoryRouter, Link, RouterProvider, useNavigate } from 'react-router';
import { renderWithProviders } from '../../test/helpers/renderWithProviders';
import { leavePageMessage, useLeaveConfirmation } from './useLeaveConfirmation';

function FormPage() {
  const [text, setText] = useState('');
  const leave = useLeaveConfirmation(text !== '');
  const navigate = useNavigate();
  return (
    <>
      <h1>Form page</h1>
      <label>
        Name
        <input value={text} onChange={(event) => setText(event.target.value)} />
      </label>
      <Link to="/elsewhere">Elsewhere</Link>
      <button
        type="button"
        onClick={() => {
          leave.allowNextNavigation();
          void navigate('/elsewhere');
        }}
      >
        Save and go
      </button>
      {leave.dialog}
    </>
  );
}

function renderForm() {
  const router = createMemoryRouter(
    [
      { path: '/form', element: <FormPage /> },
      { path: '/elsewhere', element: <h1>Elsewhere page</h1> },
    ],
    { initialEntries: ['/form'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

function beforeUnloadPrevented(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useLeaveConfirmation', () => {
  it('lets the user leave without asking when nothing was typed', async () => {
    const router = renderForm();
    expect(beforeUnloadPrevented()).toBe(false);
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks with Stay and Leave when there is unsaved input; Stay keeps the page and the input', async () => {
    const router = renderForm();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Stent' } });
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(leavePageMessage);
    expect(leavePageMessage).toBe('Are you sure you want to leave the page? Your progress will be lost.');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/form');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Stent');
  });

  it('Leave goes on to the page asked for', async () => {
    const router = renderForm();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Stent' } });
    fireEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks the browser before closing or reloading the tab while there is unsaved input', async () => {
    renderForm();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Stent' } });
    await waitFor(() => expect(beforeUnloadPrevented()).toBe(true));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '' } });
    await waitFor(() => expect(beforeUnloadPrevented()).toBe(false));
  });

  it('lets a navigation through after the input was saved', async () => {
    const router = renderForm();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Stent' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and go' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere page' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
