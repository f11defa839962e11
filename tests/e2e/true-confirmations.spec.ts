import * as z from 'zod';
import {
  calculateOnAgentPage,
  emailsTo,
  expect,
  makeEstimate,
  sameSiteHeaders,
  test,
  unlockEstimate,
} from './fixtures.ts';

// Issue 23, newcomer audit M3: "We have e-mailed this estimate" was shown when the address's hourly
// cap (5 estimate e-mails) had stopped it, and the estimate page's Send said "an error" for a 429.
test.describe('only true confirmations about e-mail', () => {
  test.use({ consoleErrorsAllowed: [/status of 429/] });

  test('a capped unlock says the estimate was not e-mailed and when to try again; Send says the same', async ({
    page,
    request,
  }, testInfo) => {
    const email = `capped.${testInfo.project.name}.${Date.now()}@example.org`;
    const agent = z
      .object({ agent: z.object({ id: z.number() }) })
      .parse(await (await request.get('/api/agents/public/alexmorgan')).json()).agent;
    // Five unlocks of five estimates with one address: the hour's five estimate e-mails.
    for (let unlock = 0; unlock < 5; unlock += 1) {
      const estimate = await makeEstimate(request, 'alexmorgan');
      const response = await request.post('/api/leads', {
        headers: sameSiteHeaders(),
        data: {
          agent_id: agent.id,
          first_name: 'Dana',
          last_name: 'Capped',
          email,
          phone: '631-555-0199',
          consent_marketing: true,
          estimate_uuid: estimate.uuid,
        },
      });
      expect(response.status(), await response.text()).toBe(201);
    }
    await emailsTo(email, 5);

    await calculateOnAgentPage(page);
    await unlockEstimate(page, { firstName: 'Dana', lastName: 'Capped', phone: '6315550199', email });
    const said = page.getByRole('status').filter({ hasText: email });
    await expect(said).toContainText(`We could not e-mail this estimate to ${email}`);
    await expect(said).toContainText(/unlock again in \d+ (minutes?|hours?) to have it e-mailed/);
    await expect(page.getByText(/We have e-mailed/)).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('unlock-capped.png'), fullPage: true });

    // The estimate page's Send with the same address: the cap and the wait, not "an error".
    const estimate = await makeEstimate(request, 'alexmorgan');
    await page.goto(`/estimate/${estimate.uuid}`);
    await page.getByRole('button', { name: 'Send this to my email' }).click();
    const modal = page.getByRole('dialog', { name: 'Send this to my email' });
    await modal.getByLabel('Full name').fill('Dana Capped');
    await modal.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
    await modal.getByRole('checkbox', { name: /^I agree/ }).check();
    await modal.getByRole('button', { name: 'Send My Estimate' }).click();
    await expect(
      modal.getByText(
        /^We could not e-mail your estimate: it has been e-mailed as many times as we allow in an hour\. Please try again in \d+ (minutes?|hours?)\.$/,
      ),
    ).toBeVisible();
    await expect(modal.getByText('There was an error sending your estimate')).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('send-capped.png') });
    expect(await emailsTo(email, 5)).toHaveLength(5);
  });
});
