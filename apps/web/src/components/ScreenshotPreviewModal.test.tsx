import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ScreenshotThumbnail } from './ScreenshotPreviewModal';

function openPreview() {
  render(<ScreenshotThumbnail thumbnailUrl="/thumb.png" fullUrl="/full.png" />);
  fireEvent.click(screen.getByRole('button', { name: 'Open screenshot' }));
  return screen.getByRole('dialog', { name: 'Screenshot' });
}

describe('ScreenshotPreviewModal', () => {
  it('opens on a click on the small image and shows the full image', () => {
    const dialog = openPreview();
    expect(dialog.querySelector('img')?.getAttribute('src')).toBe('/full.png');
  });

  it('closes by its button', async () => {
    openPreview();
    fireEvent.click(screen.getByRole('button', { name: 'Close the preview' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes by Escape', async () => {
    const dialog = openPreview();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes by a click outside', async () => {
    openPreview();
    // The backdrop is the area outside the dialog's paper.
    const backdrop = document.querySelector('.MuiBackdrop-root');
    expect(backdrop).not.toBeNull();
    fireEvent.mouseDown(backdrop!);
    fireEvent.click(backdrop!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
