import { clickNav, collectAlerts, expect, openHomeModal, recordApiCalls, submitContact, test } from './fixtures.ts';

test.describe('a seller asking the featured agent to call', () => {
  test('leaves contact details and sees the thank-you alert', async ({ page }) => {
    const alerts = collectAlerts(page);
    const calls = recordApiCalls(page, '/api/leads');
    const contact = await openHomeModal(page, 'Contact');
    await submitContact(page, {
      firstName: 'Jordan',
      lastName: "Lee-O'Neil",
      phone: '(631) 555-0199',
      email: 'jordan@example.com',
      address: '5 Elm St, Huntington, NY',
    });

    await expect.poll(() => alerts).toEqual(['Thank you! We will be in touch soon.']);
    await expect(contact).toBeHidden();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({
      firstName: 'Jordan',
      lastName: "Lee-O'Neil",
      phone: '(631) 555-0199',
      email: 'jordan@example.com',
      source: 'showcase',
      consent_marketing: true,
    });

    // The form was cleared for the next visitor.
    await clickNav(page, 'Contact');
    await expect(contact.getByLabel('First name')).toHaveValue('');
  });

  test('an empty or wrong form shows its errors and sends nothing', async ({ page }) => {
    const calls = recordApiCalls(page, '/api/leads');
    const contact = await openHomeModal(page, 'Contact');
    await contact.getByRole('button', { name: 'Submit' }).click();
    await expect(contact.getByText('First name is required')).toBeVisible();
    await expect(contact.getByText('Last name is required')).toBeVisible();
    await expect(contact.getByText('Phone is required')).toBeVisible();
    await expect(contact.getByText('Email is required')).toBeVisible();
    await expect(contact.getByText('Please agree to be contacted about your home sale')).toBeVisible();

    await contact.getByLabel('First name').fill('Jordan');
    await contact.getByLabel('Last name').fill('Lee');
    await contact.getByRole('textbox', { name: 'Phone' }).fill('555');
    await contact.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await contact.getByRole('checkbox').check();
    await contact.getByRole('button', { name: 'Submit' }).click();
    await expect(contact.getByText('Please enter a valid phone number')).toBeVisible();
    await expect(contact.getByText('Please enter a valid email address')).toBeVisible();
    expect(calls).toEqual([]);

    await contact.getByRole('button', { name: 'Cancel' }).click();
    await expect(contact).toBeHidden();
  });

  test.describe('when the network fails', () => {
    test.use({ consoleErrorsAllowed: [/ERR_FAILED/] });
    test('a network failure shows the error alert and keeps what was typed', async ({ page }) => {
      const alerts = collectAlerts(page);
      await page.route('**/api/leads', (route) => route.abort('failed'));
      const contact = await openHomeModal(page, 'Contact');
      await submitContact(page, {
        firstName: 'Jordan',
        lastName: 'Lee',
        phone: '6315550199',
        email: 'jordan@example.com',
      });
      await expect.poll(() => alerts).toEqual(['There was an error submitting your information. Please try again.']);
      await expect(contact.getByLabel('First name')).toHaveValue('Jordan');
    });
  });
});
