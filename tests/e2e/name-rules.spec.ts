import { calculate, expect, openHomeModal, shootPhoneAndDesktop, submitContact, test } from './fixtures.ts';

// Issue 23, minor 5: one name rule for every form. The calculator refused nothing, the contact form
// refused emoji, so a name carried into "Talk to…" could be refused there.
test('the calculator takes a name by the contact form’s rule, and "Talk to…" carries it on without an error', async ({
  page,
}, testInfo) => {
  const calculator = await openHomeModal(page, 'Get Estimate');
  await calculate(page, { firstName: '😀😀 Bob', price: '780200', mortgage: '450000' });
  await expect(
    calculator.getByText('First name can only contain letters, spaces, apostrophes, hyphens and periods'),
  ).toBeVisible();
  await expect(calculator.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await shootPhoneAndDesktop(page, testInfo, 'calculator-name-emoji');

  await calculator.getByLabel('First name').fill('Zoë O’Brien-Smith');
  await calculator.getByRole('button', { name: 'Calculate My Net Proceeds' }).click();
  const result = page.getByRole('dialog', { name: 'Your Estimate' });
  await expect(result.getByTestId('net-proceeds')).toBeVisible();
  await result.getByRole('button', { name: 'Talk to Alex' }).click();
  const contact = page.getByRole('dialog', { name: 'Work with Alex Morgan' });
  await expect(contact.getByLabel('First name')).toHaveValue('Zoë O’Brien-Smith');
  await submitContact(page, {
    firstName: 'Zoë O’Brien-Smith',
    lastName: 'Quinn',
    phone: '6315550123',
    email: `zoe.${testInfo.project.name}@example.com`,
  });
  await expect(page.getByRole('status').filter({ hasText: 'Thank you! We will be in touch soon.' })).toBeVisible();
  await expect(page.getByText(/can only contain letters/)).toHaveCount(0);
});
