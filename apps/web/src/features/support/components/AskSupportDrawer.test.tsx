import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { AskSupportDrawer } from './AskSupportDrawer';

configure({ asyncUtilTimeout: 5000 });

afterEach(() => cleanup());

const prefill = {
  subject: 'Simulation set-up: Valve room',
  message: 'I would like help setting up a fluid simulation.',
};

function renderDrawer(withPrefill: typeof prefill | null) {
  const onClose = vi.fn();
  renderWithProviders(
    <MemoryRouter>
      <AskSupportDrawer open onClose={onClose} prefill={withPrefill} />
    </MemoryRouter>,
  );
  return onClose;
}

describe('AskSupportDrawer prefilled by a page (the simulation help)', () => {
  it('fills subject and message, and closing them unchanged asks nothing', () => {
    const onClose = renderDrawer(prefill);
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveProperty('value', prefill.subject);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveProperty('value', prefill.message);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Discard your request?' })).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks before discarding text the user added to it', async () => {
    const onClose = renderDrawer(prefill);
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), {
      target: { value: `${prefill.message} A stent in the LVOT.` },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Discard your request?' })).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('opens empty without a prefill', () => {
    renderDrawer(null);
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveProperty('value', '');
  });
});
