import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import {
  designHistoryProjectNotFoundMessage,
  signatureCredentialsMessage,
  type DesignHistoryExport,
  type DesignHistoryExportList,
  type DesignHistoryItem,
  type DesignHistoryList,
} from '@insilico/contracts';
import { UserContext } from '../../../app/user/userContext';
import {
  jsonResponse,
  renderWithProviders,
  testSelectedDevice,
  testUser,
} from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { DesignHistoryPage } from './DesignHistoryPage';

/** A large file's resumable upload (tus): reports half sent, then finishes when the test says so. */
const resumable = vi.hoisted(() => ({ finish: () => {}, files: [] as string[] }));
vi.mock('../attachmentUpload', () => ({
  sendResumable: (_deviceId: string, file: File, onProgress: (sent: number, total: number) => void) => {
    resumable.files.push(file.name);
    onProgress(file.size / 2, file.size);
    return new Promise<string>((resolve) => {
      resumable.finish = () => resolve('99999999-9999-4999-8999-999999999999');
    });
  },
}));

const valve = { id: '11111111-1111-4111-8111-111111111111', name: 'Valve sizing' };
const stent = { id: '22222222-2222-4222-8222-222222222222', name: 'Stent anchoring' };
const entryId = '33333333-3333-4333-8333-333333333333';

function item(id: number, overrides: Partial<DesignHistoryItem> = {}): DesignHistoryItem {
  return {
    id,
    occurredAt: '2026-11-20T09:30:00.000Z',
    section: 'review',
    action: 'project.status_changed',
    summary: `Ada Admin completed the project Valve sizing (${id})`,
    actor: { id: 'u-2', name: 'Ada Admin' },
    project: valve,
    reason: 'Bench tests passed',
    link: `/projects/view/stats?project=${valve.id}`,
    snapshot: { before: { status: 'active' }, after: { status: 'completed' } },
    entry: null,
    evidence: [],
    toBeRerun: null,
    record: { type: 'event', id: String(id) },
    signatures: [],
    ...overrides,
  };
}

const signed = item(2, {
  section: 'input',
  action: 'design_history.entry_added',
  summary: 'Sizing range',
  project: stent,
  entry: {
    id: entryId,
    kind: 'design_input',
    title: 'Sizing range',
    body: '20–29 mm',
    evidenceEventIds: [],
    supersedesId: null,
    supersededById: null,
    attachments: [
      {
        id: '77777777-7777-4777-8777-777777777777',
        fileName: 'Sizing bench.pdf',
        contentType: 'application/pdf',
        bytes: 1536,
        sha256: 'b'.repeat(64),
        uploadedAt: '2026-11-20T09:31:00.000Z',
        download: `/api/devices/d-1/design-history/entries/${entryId}/attachments/77777777-7777-4777-8777-777777777777`,
      },
    ],
  },
  record: { type: 'entry', id: entryId },
  signatures: [
    {
      id: '44444444-4444-4444-8444-444444444444',
      meaning: 'approval',
      signer: { id: '66666666-6666-4666-8666-666666666666', name: 'Ada Admin' },
      signedAt: '2026-11-21T08:05:09.123Z',
      contentHash: 'a'.repeat(64),
      valid: true,
    },
  ],
});

/** A project of the list as the server answers it to someone on its team (project.work, project.sign). */
function teamRights(project: { id: string; name: string }, onTeam = true) {
  return { ...project, canWork: onTeam, canSign: onTeam };
}

let list: DesignHistoryList;
/** The user's files made by export jobs (GET …/exports), read anew on each request. */
let fileExports: DesignHistoryExportList;
let signAnswer: Response;
/** The export's answer, held until the test lets it go (the buttons' busy state is seen meanwhile). */
let exportAnswer: Promise<Response>;
const posted: unknown[] = [];
/** The files the page sent as attachments. */
const attached: unknown[] = [];

function renderPage(path = '/design-history') {
  renderWithProviders(
    <UserContext.Provider
      value={{ user: testUser, error: undefined, isLoading: false, isValidating: false, retry: () => {} }}
    >
      <MemoryRouter initialEntries={[path]}>
        <DesignHistoryPage />
      </MemoryRouter>
    </UserContext.Provider>,
  );
}

beforeEach(() => {
  posted.length = 0;
  attached.length = 0;
  fileExports = { items: [] };
  list = {
    items: [item(3), signed],
    nextBefore: null,
    projects: [teamRights(stent), teamRights(valve)],
    signing: { method: 'password', needsEmail: true },
  };
  stubApi((url, init) => {
    if (url.pathname === '/api/devices/d-1/design-history/signatures') {
      posted.push(JSON.parse(String(init?.body)));
      return signAnswer;
    }
    const fromUpload = /^\/api\/devices\/d-1\/design-history\/entries\/([^/]+)\/attachments\/uploaded$/.exec(
      url.pathname,
    );
    if (fromUpload) {
      attached.push({ entryId: fromUpload[1], ...(JSON.parse(String(init?.body)) as object) });
      return jsonResponse(201, signed.entry!.attachments[0]);
    }
    const attaching = /^\/api\/devices\/d-1\/design-history\/entries\/([^/]+)\/attachments$/.exec(url.pathname);
    if (attaching) {
      const file = init?.body as File;
      attached.push({ entryId: attaching[1], name: url.searchParams.get('name'), type: file.type, size: file.size });
      return jsonResponse(201, { ...signed.entry!.attachments[0], fileName: file.name });
    }
    if (url.pathname === '/api/devices/d-1/design-history/entries') {
      posted.push(JSON.parse(String(init?.body)));
      return jsonResponse(201, { ...signed.entry, id: '88888888-8888-4888-8888-888888888888', supersedesId: entryId });
    }
    if (url.pathname === '/api/devices/d-1/design-history/exports' && (init?.method ?? 'GET') === 'GET')
      return jsonResponse(200, fileExports);
    if (url.pathname === '/api/devices/d-1/design-history/exports') {
      posted.push(JSON.parse(String(init?.body)));
      return exportAnswer;
    }
    if (url.pathname === '/api/devices/d-1/design-history') return jsonResponse(200, list);
    return undefined;
  }, testSelectedDevice);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the design history page', () => {
  it('shows the timeline with sections, reasons, entries and each signature’s name, meaning and UTC time', async () => {
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    const [first, second] = within(timeline).getAllByTestId('design-history-item');
    expect(within(first!).getByText('Reviews and approvals')).toBeTruthy();
    expect(within(first!).getByText('Reason: Bench tests passed')).toBeTruthy();
    expect(
      within(first!)
        .getByRole('link', { name: /completed the project Valve sizing \(3\)/ })
        .getAttribute('href'),
    ).toBe(`/projects/view/stats?project=${valve.id}`);
    expect(within(second!).getByText('Sizing range')).toBeTruthy();
    expect(within(second!).getByText('20–29 mm')).toBeTruthy();
    expect(within(second!).getByTestId('signature').textContent).toBe(
      'Approved by Ada Admin · 21.11.2026 08:05:09 UTC',
    );
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/devices/d-1/design-history/export',
    );
  });

  it('highlights the entries of the project under the pointer (hoveredProjectId)', async () => {
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    const projects = screen.getByRole('list', { name: 'Projects' });
    fireEvent.mouseEnter(within(projects).getByText('Stent anchoring'));
    const highlighted = () =>
      within(timeline)
        .getAllByTestId('design-history-item')
        .map((node) => node.getAttribute('data-highlighted') === 'true');
    expect(highlighted()).toEqual([false, true]);
    fireEvent.mouseLeave(within(projects).getByText('Stent anchoring'));
    expect(highlighted()).toEqual([false, false]);
  });

  it('signs with a meaning and both components at the first signing, and shows a refusal in the dialog', async () => {
    signAnswer = jsonResponse(400, { error: { code: 'signature_credentials', message: signatureCredentialsMessage } });
    renderPage();
    await screen.findByRole('list', { name: 'Design history' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Sizing range' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign this record' });
    fireEvent.click(within(dialog).getByLabelText('Approved'));
    fireEvent.change(within(dialog).getByLabelText(/E-mail/), { target: { value: 'ada@example.com' } });
    fireEvent.change(within(dialog).getByLabelText(/Password/), { target: { value: 'wrong' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    expect(await within(dialog).findByText(signatureCredentialsMessage)).toBeTruthy();
    expect(posted).toEqual([
      { record: { type: 'entry', id: entryId }, meaning: 'approval', email: 'ada@example.com', password: 'wrong' },
    ]);

    signAnswer = jsonResponse(201, { ...signed.signatures[0], id: '55555555-5555-4555-8555-555555555555' });
    fireEvent.change(within(dialog).getByLabelText(/Password/), { target: { value: 'Valve-Sizing-2026' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Signed. The signature is shown on the record.')).toBeTruthy();
  });

  it('confirms a signature made at the organisation’s sign-in page once the browser is back, once', async () => {
    list = { ...list, signing: { method: 'issuer', needsEmail: false } };
    let address = '';
    function Address() {
      const location = useLocation();
      address = `${location.pathname}${location.search}`;
      return null;
    }
    renderWithProviders(
      <UserContext.Provider
        value={{ user: testUser, error: undefined, isLoading: false, isValidating: false, retry: () => {} }}
      >
        <MemoryRouter initialEntries={[`/design-history?projectId=${stent.id}&signed=1`]}>
          <DesignHistoryPage />
          <Address />
        </MemoryRouter>
      </UserContext.Provider>,
    );
    expect(await screen.findByText('Signed. The signature is shown on the record.')).toBeTruthy();
    // The marker leaves the address (a reload does not confirm again); the project filter stays.
    await waitFor(() => expect(address).toBe(`/design-history?projectId=${stent.id}`));
    await screen.findByRole('list', { name: 'Design history' });
    expect(screen.getByText('Signed. The signature is shown on the record.')).toBeTruthy();
  });

  it('shows no confirmation without the marker', async () => {
    renderPage(`/design-history?projectId=${stent.id}`);
    await screen.findByRole('list', { name: 'Design history' });
    expect(screen.queryByText('Signed. The signature is shown on the record.')).toBeNull();
  });

  it('shows an entry’s trace links and the evidence a newer device version makes to be re-run', async () => {
    const run = item(5, {
      section: 'evidence',
      action: 'simulation.started',
      summary: 'Ada Admin started a simulation in the project Valve sizing',
      link: '/projects/room/simulation?run=5',
      toBeRerun: { versionId: 'v-2', versionName: 'Gen 2' },
    });
    const cites = item(6, {
      section: 'evidence',
      action: 'design_history.entry_added',
      entry: { ...signed.entry!, id: '77777777-7777-4777-8777-777777777777', kind: 'verification', title: 'Run 5' },
      evidence: [{ id: 5, summary: run.summary, link: run.link }],
      record: { type: 'entry', id: '77777777-7777-4777-8777-777777777777' },
    });
    list = { ...list, items: [cites, run] };
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    const [entry, evidence] = within(timeline).getAllByTestId('design-history-item');
    expect(within(entry!).getByRole('link', { name: run.summary }).getAttribute('href')).toBe(run.link);
    expect(within(evidence!).getByText('To be re-run on Gen 2')).toBeTruthy();
  });

  it('shows that an analysis’ results are a kept snapshot: its time, code version and SHA-256', async () => {
    const analysis = item(7, {
      section: 'evidence',
      action: 'analysis.created',
      summary: 'Ada Admin created an analysis in the project Valve sizing',
      reason: null,
      resultsSnapshot: {
        id: '99999999-9999-4999-8999-999999999999',
        sha256: 'b'.repeat(64),
        takenAt: '2026-11-22T10:11:12.345Z',
        codeVersion: '0.9.1',
        revision: 1,
      },
    });
    list = { ...list, items: [analysis, item(3)] };
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    const [kept, status] = within(timeline).getAllByTestId('design-history-item');
    expect(within(kept!).getByTestId('results-snapshot').textContent).toBe(
      `Results kept as a snapshot on 22.11.2026 10:11:12 UTC (revision 1, code 0.9.1; SHA-256 ${'b'.repeat(64)})`,
    );
    expect(within(status!).queryByTestId('results-snapshot')).toBeNull();
  });

  it('supersedes a signed entry with a new one that names it', async () => {
    renderPage();
    await screen.findByRole('list', { name: 'Design history' });
    fireEvent.click(screen.getByRole('button', { name: 'Supersede Sizing range' }));
    const form = screen.getByRole('form', { name: 'New design history entry' });
    expect(within(form).getByText(/This entry supersedes “Sizing range”/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/Title/), { target: { value: 'Sizing range 19–29 mm' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add entry' }));
    expect(await screen.findByText('The entry was added to the design history.')).toBeTruthy();
    expect(posted).toEqual([
      {
        projectId: stent.id,
        kind: 'design_input',
        title: 'Sizing range 19–29 mm',
        body: '20–29 mm',
        evidenceEventIds: [],
        supersedesId: entryId,
      },
    ]);
  });

  it('lists an entry’s files with size and SHA-256, and offers no "Attach file" once it is signed', async () => {
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    const entry = within(timeline).getAllByTestId('design-history-item')[1]!;
    const file = within(entry).getByTestId('attachment');
    expect(within(file).getByRole('link', { name: 'Sizing bench.pdf' }).getAttribute('href')).toBe(
      signed.entry!.attachments[0]!.download,
    );
    expect(file.textContent).toContain(`1.5 KB · SHA-256 ${'b'.repeat(64)}`);
    expect(within(entry).queryByRole('button', { name: 'Attach file' })).toBeNull();
  });

  it('offers "Sign", "Attach file", "Supersede" and new entries only on the projects whose team the user is on', async () => {
    const draft = item(4, {
      section: 'input',
      action: 'design_history.entry_added',
      summary: 'Delivery profile',
      project: stent,
      entry: {
        ...signed.entry!,
        id: '99999999-9999-4999-8999-999999999999',
        title: 'Delivery profile',
        attachments: [],
      },
      record: { type: 'entry', id: '99999999-9999-4999-8999-999999999999' },
      signatures: [],
    });
    // A member who is on the valve project's team, not on the stent project's: the server refuses the stent's with 403.
    list = { ...list, items: [item(3), signed, draft], projects: [teamRights(stent, false), teamRights(valve)] };
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    const [valveItem, signedStent, draftStent] = within(timeline).getAllByTestId('design-history-item');
    expect(within(valveItem!).getByRole('button', { name: /^Sign / })).toBeTruthy();
    for (const stentItem of [signedStent!, draftStent!]) {
      expect(within(stentItem).queryByRole('button', { name: /^Sign / })).toBeNull();
      expect(within(stentItem).queryByRole('button', { name: /^Supersede / })).toBeNull();
      expect(within(stentItem).queryByRole('button', { name: 'Attach file' })).toBeNull();
    }
    expect(within(signedStent!).getByTestId('attachment')).toBeTruthy();
    // New entries only on the valve project.
    fireEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    const form = screen.getByRole('form', { name: 'New design history entry' });
    fireEvent.mouseDown(within(form).getByRole('combobox', { name: /Project/ }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Valve sizing']);
  });

  it('offers none of them, nor new entries, where the server says the user may not work (a guest)', async () => {
    list = { ...list, projects: [teamRights(stent, false), teamRights(valve, false)] };
    renderPage();
    const timeline = await screen.findByRole('list', { name: 'Design history' });
    expect(within(timeline).queryAllByRole('button', { name: /^(Sign|Supersede) / })).toEqual([]);
    expect(within(timeline).queryByRole('button', { name: 'Attach file' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add entry' })).toBeNull();
  });

  it('attaches the chosen files to a new entry once it is added', async () => {
    renderPage();
    await screen.findByRole('list', { name: 'Design history' });
    fireEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    const form = screen.getByRole('form', { name: 'New design history entry' });
    fireEvent.change(within(form).getByLabelText(/Title/), { target: { value: 'Fatigue protocol' } });
    const protocol = new File(['cycles,load\n1,2\n'], 'fatigue.csv', { type: 'text/csv' });
    const tooLarge = new File([new Uint8Array(8)], 'scan.bin');
    Object.defineProperty(tooLarge, 'size', { value: 1025 * 1024 * 1024 });
    fireEvent.change(within(form).getByLabelText('Choose files to attach'), {
      target: { files: [protocol, tooLarge] },
    });
    expect(within(form).getByRole('alert').textContent).toContain(
      '“scan.bin”: The file is too big: one file can have at most 1 GB.',
    );
    expect(within(form).getByRole('list', { name: 'Files to attach' }).textContent).toContain('fatigue.csv');
    fireEvent.click(within(form).getByRole('button', { name: 'Add entry' }));
    expect(await screen.findByText('The entry was added to the design history.')).toBeTruthy();
    expect(attached).toEqual([
      { entryId: '88888888-8888-4888-8888-888888888888', name: 'fatigue.csv', type: 'text/csv', size: protocol.size },
    ]);
  });

  it('sends a file above 100 MB as a resumable upload, shows how far it is, then attaches it', async () => {
    resumable.files.length = 0;
    renderPage();
    await screen.findByRole('list', { name: 'Design history' });
    fireEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    const form = screen.getByRole('form', { name: 'New design history entry' });
    fireEvent.change(within(form).getByLabelText(/Title/), { target: { value: 'Bench recording' } });
    const recording = new File([new Uint8Array(8)], 'recording.mp4', { type: 'video/mp4' });
    Object.defineProperty(recording, 'size', { value: 300 * 1024 * 1024 });
    fireEvent.change(within(form).getByLabelText('Choose files to attach'), { target: { files: [recording] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add entry' }));
    expect((await within(form).findByRole('status')).textContent).toBe('Sending “recording.mp4”: 50 %');
    expect(resumable.files).toEqual(['recording.mp4']);
    resumable.finish();
    expect(await screen.findByText('The entry was added to the design history.')).toBeTruthy();
    expect(attached).toEqual([
      { entryId: '88888888-8888-4888-8888-888888888888', uploadId: '99999999-9999-4999-8999-999999999999' },
    ]);
  });

  it('says so when nothing matches the filters', async () => {
    list = { ...list, items: [] };
    renderPage(`/design-history?section=output&projectId=${valve.id}`);
    expect(await screen.findByText('Nothing in the design history matches these filters.')).toBeTruthy();
  });

  it('exports the shown project’s file as PDF, the buttons disabled and the pressed one busy until it has come', async () => {
    let release: (response: Response) => void = () => {};
    exportAnswer = new Promise((resolve) => (release = resolve));
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((object) => {
      saved = object as Blob;
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    let name = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    renderPage(`/design-history?projectId=${valve.id}`);
    await screen.findByRole('list', { name: 'Design history' });
    fireEvent.click(screen.getByRole('button', { name: 'Export PDF' }));
    const busy = await screen.findByRole('button', { name: 'Preparing the PDF…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Export evidence ZIP' }).hasAttribute('disabled')).toBe(true);
    expect(posted).toEqual([{ format: 'pdf', projectId: valve.id }]);

    release(
      new Response('%PDF-1.3', {
        status: 200,
        headers: {
          'Content-Type': 'application/pdf',
          'Content-Disposition': 'attachment; filename="design-history-valve-sizing-2026-11-28.pdf"',
        },
      }),
    );
    expect(await screen.findByRole('button', { name: 'Export PDF' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export PDF' }).hasAttribute('disabled')).toBe(false);
    expect(name).toBe('design-history-valve-sizing-2026-11-28.pdf');
    expect(await (saved as unknown as Blob).text()).toBe('%PDF-1.3');
  });

  it('says why an export was refused, with the server’s words, and lets the user try again', async () => {
    exportAnswer = Promise.resolve(
      jsonResponse(404, { error: { code: 'project_not_found', message: designHistoryProjectNotFoundMessage } }),
    );
    renderPage();
    await screen.findByRole('list', { name: 'Design history' });
    fireEvent.click(screen.getByRole('button', { name: 'Export evidence ZIP' }));
    expect(await screen.findByText(designHistoryProjectNotFoundMessage)).toBeTruthy();
    expect(posted).toEqual([{ format: 'zip' }]);
    expect(screen.getByRole('button', { name: 'Export evidence ZIP' }).hasAttribute('disabled')).toBe(false);
  });

  it('shows a large history’s file in progress after the export is queued, then its download when it is ready', async () => {
    const queued: DesignHistoryExport = {
      id: '99999999-9999-4999-8999-999999999999',
      projectId: valve.id,
      format: 'zip',
      status: 'queued',
      requestedAt: '2026-11-28T10:00:00.000Z',
      fileName: null,
      bytes: null,
      sha256: null,
      error: null,
      expiresAt: null,
      download: null,
    };
    exportAnswer = Promise.resolve(jsonResponse(202, queued));
    renderPage(`/design-history?projectId=${valve.id}&export=${queued.id}`);
    await screen.findByRole('list', { name: 'Design history' });
    expect(screen.queryByRole('region', { name: 'Design history files' })).toBeNull();
    fileExports = { items: [queued] };
    fireEvent.click(screen.getByRole('button', { name: 'Export evidence ZIP' }));
    const progress = await screen.findByRole('status');
    expect(progress.textContent).toContain('The evidence ZIP of Valve sizing');
    expect(progress.textContent).toContain('being made');
    expect(posted).toEqual([{ format: 'zip', projectId: valve.id }]);

    const download = `/api/devices/d-1/design-history/exports/${queued.id}/file`;
    fileExports = {
      items: [
        {
          ...queued,
          status: 'ready',
          fileName: 'design-history-valve-sizing-2026-11-28.zip',
          bytes: 1234,
          sha256: 'b'.repeat(64),
          expiresAt: '2026-12-05T10:00:05.000Z',
          download,
        },
      ],
    };
    const link = await screen.findByRole(
      'link',
      { name: 'Download design-history-valve-sizing-2026-11-28.zip' },
      {
        timeout: 5000,
      },
    );
    expect(link.getAttribute('href')).toBe(download);
    expect(screen.getByText(/SHA-256 b{64} \(recorded in the audit trail\)/)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('region', { name: 'Design history files' })).toBeTruthy();
  });
});
