// The offers comparison as a PDF (its Download PDF button), and the estimate page's range and offers
// reached from the agent page's result (newcomer audit 2026-11-26, minor 22).
import type { Page } from '@playwright/test';
import { comparisonAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { readPdf } from '../support/pdf.ts';
import {
  calculateOnAgentPage,
  expect,
  makeEstimate,
  sameSiteHeaders,
  test,
  unlockEstimate,
  waitForIslands,
} from './fixtures.ts';

/** The screens at the widths the reviews look at: 390 px on a phone, the desktop project's 1280 px. */
async function screenshot(page: Page, name: string, project: string): Promise<void> {
  if (project === 'phone') await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test.describe('the printed offers and the tools behind the agent page', () => {
  test('Download PDF on the offers view answers the comparison as a PDF', async ({ page }, testInfo) => {
    const estimate = await makeEstimate(page.request, 'alexmorgan');
    const made = await page.request.post('/api/offers', {
      data: {
        estimate_uuid: estimate.uuid,
        offers: [
          { price: 780200, concessions: 0, closing_date: '2027-03-01', financing: 'cash' },
          { price: 800000, concessions: 12000, closing_date: '2027-04-01', financing: 'conventional' },
        ],
      },
      headers: sameSiteHeaders(),
    });
    expect(made.status(), await made.text()).toBe(201);
    const { comparison } = comparisonAnswerSchema.parse(await made.json());
    await page.goto(`/offers/${comparison.uuid}`);
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Offers Side by Side' })).toBeVisible();

    const download = page.getByRole('link', { name: 'Download PDF' });
    await expect(download).toHaveAttribute('href', `/api/offers/${comparison.uuid}/pdf`);
    await screenshot(page, 'offers-view', testInfo.project.name);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe(`offers-${comparison.uuid}.pdf`);
    const path = await file.path();
    const { readFile } = await import('node:fs/promises');
    const pdf = await readPdf(new Uint8Array(await readFile(path)));
    for (const piece of ['Offers side by side', 'Offer 1', 'Offer 2', '$800,000.00', '$12,000.00', 'Net to seller']) {
      expect(pdf.text).toContain(piece);
    }
  });

  test("the agent page's result leads to the estimate's range and offers", async ({ page }, testInfo) => {
    await calculateOnAgentPage(page);
    await unlockEstimate(page, {
      firstName: 'Robin',
      lastName: 'Park',
      phone: '6315550199',
      email: `robin.tools+${testInfo.project.name}@example.com`,
    });
    const tools = page.getByRole('navigation', { name: 'More with this estimate' });
    const range = tools.getByRole('link', { name: 'Your net at other prices' });
    const offers = tools.getByRole('link', { name: 'Compare offers' });
    await expect(range).toHaveAttribute('href', /^\/estimate\/[0-9a-f-]{36}#range$/);
    await expect(offers).toHaveAttribute('href', /^\/estimate\/[0-9a-f-]{36}#offers$/);
    await screenshot(page, 'agent-result-tools', testInfo.project.name);

    const rangeHref = (await range.getAttribute('href')) ?? '';
    await offers.click();
    await expect(page).toHaveURL(/\/estimate\/[0-9a-f-]{36}#offers$/);
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 2, name: 'Compare offers' })).toBeInViewport();
    await page.goto(rangeHref);
    await waitForIslands(page);
    await expect(page.getByRole('heading', { level: 2, name: 'Your net at other prices' })).toBeInViewport();
  });
});
