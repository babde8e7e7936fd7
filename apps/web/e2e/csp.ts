import { expect, test as base } from '@playwright/test';

/**
 * `test` with a Content-Security-Policy watch (issue 14): every page the journey opens must come with the server's
 * policy, and nothing the app does may break it. Chromium reports each blocked script, style, image, font, request
 * or worker as a console message ("Refused to … because it violates the following Content Security Policy
 * directive"); one of them fails the journey.
 */
export const test = base.extend<{ cspWatch: void }>({
  cspWatch: [
    async ({ page }, use) => {
      const violations: string[] = [];
      const pagesWithoutPolicy: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
      });
      page.on('response', (response) => {
        const request = response.request();
        if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
        if (response.status() >= 300 && response.status() < 400) return;
        if (!response.headers()['content-security-policy']) pagesWithoutPolicy.push(response.url());
      });
      await use();
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
      expect(pagesWithoutPolicy, 'pages sent without a Content-Security-Policy').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
