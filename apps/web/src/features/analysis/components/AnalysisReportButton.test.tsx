import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnalysisReportButton } from './AnalysisReportButton';
import * as exports from '../exports';

afterEach(() => vi.restoreAllMocks());

const reference = {
  source: 'Registry X',
  reference: { kind: 'summary' as const, parameters: [{ key: 'aorticAnnulusPerimeter_mm', mean: 76, sd: 6 }] },
};

describe('AnalysisReportButton', () => {
  it('posts the reference, is busy while the server makes the PDF, and saves it under the server’s file name', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const saved = vi.spyOn(exports, 'saveBlob').mockImplementation(() => undefined);
    render(<AnalysisReportButton deviceId="d" projectId="p" analysisId="a" representativeness={reference} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download report (PDF)' }));
    const busy = await screen.findByRole('button', { name: 'Making the report…' });
    expect(busy).toHaveProperty('disabled', true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/devices/d/projects/p/analyses/a/report');
    expect(JSON.parse(String(init?.body))).toEqual({ representativeness: reference });
    answer(
      new Response('%PDF-1.3', {
        status: 200,
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="TAVI-report.pdf"' },
      }),
    );
    await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    expect(saved.mock.calls[0]![0]).toBe('TAVI-report.pdf');
    expect(await screen.findByRole('button', { name: 'Download report (PDF)' })).toHaveProperty('disabled', false);
  });

  it('says the server’s refusal, and cannot be pressed while the analysis cannot be reported', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          error: { code: 'insufficient_patients', message: 'Statistical analysis needs at least 20 patients.' },
        }),
        { status: 422, headers: { 'content-type': 'application/json' } },
      ),
    );
    const { rerender } = render(<AnalysisReportButton deviceId="d" projectId="p" analysisId="a" />);
    fireEvent.click(screen.getByRole('button', { name: 'Download report (PDF)' }));
    expect(await screen.findByText('Statistical analysis needs at least 20 patients.')).toBeTruthy();
    rerender(<AnalysisReportButton deviceId="d" projectId="p" analysisId="a" disabledReason="Saving" />);
    expect(screen.getByRole('button', { name: 'Download report (PDF)' })).toHaveProperty('disabled', true);
  });
});
