import { calculate, emailsTo, expect, submitContact, test } from './fixtures.ts';

// The whole path of a lead's context: the page it came from and the estimate the seller made reach
// the agent's notice (the server's side is in tests/integration/lead-limits.test.ts).
test('a seller on a town page estimates, asks the agent to call, and the agent learns the town and the figures', async ({
  page,
}, testInfo) => {
  const email = `taylor.${testInfo.project.name}@example.com`;
  await page.goto('/long-island-real-estate/bay-shore');
  await page.getByRole('main').getByRole('button', { name: 'Get My Estimate' }).click();
  await calculate(page, { firstName: 'Taylor', price: '650000', mortgage: '300000' });
  const result = page.getByRole('dialog', { name: 'Your Estimate' });
  await expect(result.getByTestId('net-proceeds')).toBeVisible();
  await result.getByRole('button', { name: 'Talk to Alex' }).click();

  const contact = page.getByRole('dialog', { name: /^Work with / });
  await expect(contact.getByLabel('First name')).toHaveValue('Taylor');
  await submitContact(page, { firstName: 'Taylor', lastName: 'Reyes', phone: '6315550177', email });
  await expect(page.getByRole('status').filter({ hasText: 'Thank you! We will be in touch soon.' })).toBeVisible();

  const [notice] = await emailsTo('alex.morgan@example.com', 1, (message) => message.text.includes(email));
  expect(notice?.subject).toBe('New lead: Taylor Reyes');
  expect(notice?.text).toContain('Source: Town page: Bay Shore');
  expect(notice?.text).toContain('Sale Price: $650,000.00');
  expect(notice?.text).toMatch(/View the estimate online: \S+\/estimate\/[0-9a-f-]{36}/);
});
