import { readPdf } from '../support/pdf.ts';
import { calculateOnAgentPage, expect, makeEstimate, test, waitForIslands, unlockEstimate } from './fixtures.ts';

test.describe('the printable net sheet', () => {
  test('Download PDF answers the estimate as a PDF, and the printed page is the sheet alone', async ({
    page,
  }, testInfo) => {
    const estimate = await makeEstimate(page.request, 'alexmorgan');
    await page.goto(`/estimate/${estimate.uuid}`);
    await waitForIslands(page);
    await expect(page.getByRole('heading', { name: 'Your Net Sheet' })).toBeVisible();

    const download = page.getByRole('link', { name: 'Download PDF' });
    await expect(download).toBeVisible();
    const href = await download.getAttribute('href');
    expect(href).toBe(`/api/estimates/${estimate.uuid}/pdf`);
    const response = await page.request.get(href ?? '');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await page.emulateMedia({ media: 'print' });
    // Printed: the sheet, the estimate's agent and the disclaimer; nothing to click.
    await expect(page.getByText(/^Prepared by Alex Morgan/)).toBeVisible();
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    await expect(page.getByText(/Estimates are for information only/)).toBeVisible();
    for (const name of ['Download PDF', 'Send this to my email', 'Run another estimate', 'Get Estimate']) {
      await expect(page.getByRole('button', { name }).or(page.getByRole('link', { name }))).toBeHidden();
    }
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await page.screenshot({
      path: testInfo.outputPath('estimate-print.png'),
      fullPage: true,
    });
    // Chromium's own print of the page, on Letter paper: one page, with the sheet, agent and disclaimer.
    const printout = await page.pdf({
      format: 'Letter',
      path: testInfo.outputPath('estimate-print.pdf'),
    });
    const printed = await readPdf(new Uint8Array(printout));
    expect(printed.pages).toBe(1);
    for (const piece of [
      'Prepared by Alex Morgan',
      'Your Net Proceeds',
      '$279,341.00',
      'not a guarantee of sale price',
    ]) {
      expect(printed.text).toContain(piece);
    }
    await page.emulateMedia({ media: 'screen' });
    await expect(page.getByText(/^Prepared by/)).toBeHidden();
    await page.screenshot({ path: testInfo.outputPath('estimate-screen.png'), fullPage: true });
  });

  test("the agent page's unlocked sheet offers the PDF and prints on one page without buttons", async ({
    page,
  }, testInfo) => {
    await calculateOnAgentPage(page);
    await unlockEstimate(page, {
      firstName: 'Robin',
      lastName: 'Park',
      phone: '6315550199',
      email: `robin+${testInfo.project.name}@example.com`,
    });
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');

    const href = await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
    expect(href).toMatch(/^\/api\/estimates\/[0-9a-f-]{36}\/pdf$/);
    const response = await page.request.get(href ?? '');
    expect(response.headers()['content-type']).toBe('application/pdf');
    await page.screenshot({
      path: testInfo.outputPath('agent-unlocked-screen.png'),
      fullPage: true,
    });

    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('button', { name: 'Start New Calculation' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Share this page' })).toBeHidden();
    const printout = await page.pdf({
      format: 'Letter',
      path: testInfo.outputPath('agent-print.pdf'),
    });
    const printed = await readPdf(new Uint8Array(printout));
    expect(printed.pages).toBe(1);
    for (const piece of ['Alex Morgan', 'Your Net Proceeds', '$279,341.00', 'This estimate is for information only']) {
      expect(printed.text).toContain(piece);
    }
  });
});
