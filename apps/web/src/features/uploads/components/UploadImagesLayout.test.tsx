import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
// RouterProvider from 'react-router' (see routes.test.tsx): one copy of the router context.
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { leavePageMessage } from '../../../components/useLeaveConfirmation';
import type { ScanResult } from '../imaging/scan';
import { useImagingFlow } from './ImagingFlowContext';
import { UploadImagesLayout } from './UploadImagesLayout';

// The imaging worker reads the files; here it answers at once with an empty dataset.
vi.mock('../imaging/imagingClient', () => ({
  startImagingWorker: () => ({}),
  ImagingClient: class {
    scan(): Promise<ScanResult> {
      return Promise.resolve({ patients: [], thumbnails: {}, additionalFiles: [], refused: [], dicomFiles: 1 });
    }
    dispose() {}
  },
}));

function ChoosePage() {
  const flow = useImagingFlow();
  return (
    <>
      <h1>Choose data</h1>
      <button type="button" onClick={() => void flow.read({ kind: 'zip', file: new File(['x'], 'ct.zip') }, 'ct.zip')}>
        Read ct.zip
      </button>
      {flow.scan && <p>ct.zip read</p>}
      <Link to="/upload-images/anonymize-data">Next step</Link>
      <Link to="/projects/overview">Projects</Link>
    </>
  );
}

function renderFlow() {
  const router = createMemoryRouter(
    [
      {
        path: '/upload-images',
        element: <UploadImagesLayout />,
        children: [
          { index: true, element: <ChoosePage /> },
          { path: 'anonymize-data', element: <h1>Anonymize step</h1> },
        ],
      },
      { path: '/projects/overview', element: <h1>Projects page</h1> },
    ],
    { initialEntries: ['/upload-images'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('UploadImagesLayout (spec §4 "Leaving a page with unsaved progress")', () => {
  it('lets the user leave without asking before any data is chosen', async () => {
    const router = renderFlow();
    fireEvent.click(screen.getByRole('link', { name: 'Projects' }));
    expect(await screen.findByRole('heading', { name: 'Projects page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/projects/overview');
  });

  it('asks with Stay and Leave when leaving the flow with data read but not anonymized', async () => {
    const router = renderFlow();
    fireEvent.click(screen.getByRole('button', { name: 'Read ct.zip' }));
    await screen.findByText('ct.zip read');
    fireEvent.click(screen.getByRole('link', { name: 'Projects' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the page?' });
    expect(dialog.textContent).toContain(leavePageMessage);
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/upload-images');
    expect(screen.getByText('ct.zip read')).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Projects' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Projects page' })).toBeTruthy();
  });

  it('moves between the steps of the flow without asking', async () => {
    const router = renderFlow();
    fireEvent.click(screen.getByRole('button', { name: 'Read ct.zip' }));
    await screen.findByText('ct.zip read');
    fireEvent.click(screen.getByRole('link', { name: 'Next step' }));
    expect(await screen.findByRole('heading', { name: 'Anonymize step' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/upload-images/anonymize-data');
  });
});
