import { escapeHtml } from '../lib/html';
import { page } from '../lib/page-layout';

/** `/maintenance.html`: the operator's text while maintenance is on, a way back when it is off. */
export function maintenancePage(state: { maintenance_mode: boolean; maintenance_text: string }): string {
  if (!state.maintenance_mode) {
    return page({
      title: 'Available',
      body: '<h1>The workspace is available</h1><p><a href="/">Go to the workspace</a></p>',
    });
  }
  const paragraphs = state.maintenance_text
    .split(/\n{2,}/)
    .map((paragraph) => `<p data-testid="maintenance-text">${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
  return page({
    title: 'Maintenance',
    body: `<h1>Down for maintenance</h1>${paragraphs}<p>Your data is safe. This page does not refresh by itself: <a href="/">try again</a> later.</p>`,
  });
}
