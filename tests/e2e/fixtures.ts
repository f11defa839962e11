import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every page fails its test on a console error or an uncaught exception, except the errors a test
 * expects (`test.use({ consoleErrorsAllowed: [...] })`), such as a 404 it asks for on purpose.
 */
export const test = base.extend<{ consoleErrorsAllowed: RegExp[]; failOnConsoleErrors: undefined }>({
  consoleErrorsAllowed: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ page, consoleErrorsAllowed }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        const text = message.text();
        if (message.type() === 'error' && !consoleErrorsAllowed.some((pattern) => pattern.test(text))) {
          errors.push(text);
        }
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(undefined);
      expect(errors, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Waits until every island on the page has hydrated, so clicks reach React. */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Collects the messages of window.alert() calls, accepting each. */
export function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

/** Records API calls to `path` (method and body) made by the page. */
export function recordApiCalls(page: Page, path: string): { method: string; body: unknown }[] {
  const calls: { method: string; body: unknown }[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path)
      calls.push({ method: request.method(), body: request.postDataJSON() });
  });
  return calls;
}

export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}
