import type { Locator, Page } from '@playwright/test';
import * as z from 'zod';
import {
  calculate,
  calculateOnAgentPage,
  emailsTo,
  expect,
  expectNoAxeViolations,
  openHomeModal,
  test,
  waitForIslands,
} from './fixtures.ts';

const BOX = 'Send me a monthly update of my estimated net';
const PLACE = "Your home's town or ZIP code";
const PLACE_HINT = 'On Long Island, e.g. Massapequa or 11758';
const PLACE_UNKNOWN =
  'We could not find that town on Long Island. Enter its name or ZIP code, e.g. Massapequa or 11758.';
const PLACE_MISSING = "Enter your home's town or ZIP code so your updates can follow its market.";
const WIDTHS = [390, 1280] as const;

/** The path and query of the confirmation link in an e-mail (the e2e server's site URL may name another host). */
function confirmLinkIn(text: string): string {
  const link = /(https?:\/\/\S+\/updates\/confirm\?token=[A-Za-z0-9_.%-]+)/.exec(text)?.[1];
  if (!link) throw new Error(`no confirmation link in:\n${text}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** The box in a form: present, unticked, named by its label, and reachable by keyboard. */
async function expectUntickedBox(form: Locator): Promise<Locator> {
  const box = form.getByRole('checkbox', { name: BOX });
  await expect(box).toBeVisible();
  await expect(box).not.toBeChecked();
  await expect(box).toHaveAccessibleDescription(/We e-mail you a link to confirm first/);
  return box;
}

/** Ticks the box by keyboard: the place input appears after it, empty or prefilled, and focus stays on the box. */
async function tickBox(page: Page, form: Locator): Promise<Locator> {
  const box = form.getByRole('checkbox', { name: BOX });
  await expect(form.getByRole('textbox', { name: PLACE })).toHaveCount(0);
  await box.focus();
  // Keyboard: Space ticks the focused box.
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await expect(box).toBeFocused();
  const place = form.getByRole('textbox', { name: PLACE });
  await expect(place).toBeVisible();
  await expect(place).toHaveAccessibleDescription(PLACE_HINT);
  await expect(place).toHaveAttribute('autocomplete', 'address-level2');
  return place;
}

/** The /r/{slug} unlock form, filled and consented, its box not yet ticked. */
async function filledUnlock(page: Page, address: string): Promise<Locator> {
  await calculateOnAgentPage(page);
  await page.getByRole('button', { name: 'Unlock Your Estimate' }).click();
  const unlock = page.getByRole('dialog', { name: 'Unlock Your Estimate' });
  await unlock.getByLabel('First name').fill('Jamie');
  await unlock.getByLabel('Last name').fill('Rivera');
  await unlock.getByRole('textbox', { name: 'Phone' }).pressSequentially('6315550142');
  await unlock.getByRole('textbox', { name: 'Email' }).fill(address);
  await unlock.getByRole('checkbox', { name: /^I agree/ }).check();
  return unlock;
}

/** Screenshots of `target` at both widths, under the test's output folder. */
async function screenshots(page: Page, name: string, open: () => Promise<Locator>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const target = await open();
    await target.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
}

test('on /r/{slug} a seller ticks the box, confirms from the e-mail with the button, and is told so', async ({
  page,
}, testInfo) => {
  const address = `opt.in.${testInfo.project.name}@example.com`;
  const unlock = await filledUnlock(page, address);
  await expectUntickedBox(unlock);
  // The quick calculator tells no town: the seller types it.
  const place = await tickBox(page, unlock);
  await expect(place).toHaveValue('');
  await place.fill('Massapequa');
  await unlock.getByRole('button', { name: 'Unlock My Estimate' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Check your inbox to confirm your monthly updates.' }),
  ).toBeVisible();

  const [message] = await emailsTo(address, 1, (sent) => sent.text.includes('/updates/confirm?token='));
  if (!message) throw new Error(`no confirmation to ${address}`);
  expect(message.to.name ?? null).toBeNull();
  const link = confirmLinkIn(message.text);

  // Opening the link changes nothing: the button does.
  await page.goto(link);
  const card = page.getByRole('region', { name: 'Monthly updates' });
  const yes = card.getByRole('button', { name: 'Yes, send me monthly updates' });
  await expect(yes).toBeVisible();
  await expectNoAxeViolations(page);
  await yes.click();
  await expect(card.getByRole('status')).toContainText('You’re confirmed.');
  await expectNoAxeViolations(page);
  await screenshots(page, `confirm-done-${testInfo.project.name}`, () => Promise.resolve(page.locator('body')));

  // The same link again: already confirmed, said only after the API said so.
  await page.goto(link);
  await card.getByRole('button', { name: 'Yes, send me monthly updates' }).click();
  await expect(card.getByRole('status')).toContainText('Already confirmed.');
  await screenshots(page, `confirm-already-${testInfo.project.name}`, () => Promise.resolve(page.locator('body')));
});

// The refused confirmations below answer 400: the browser logs each as an error.
const REFUSED_IN_CONSOLE = [/status of 400 \(Bad Request\)/];

test('the box is unticked by default on the contact form (about an estimate) and the estimate page', async ({
  page,
  request,
}) => {
  await openHomeModal(page, 'Get Estimate');
  await calculate(page, { firstName: 'Pat', price: '780200', mortgage: '450000' });
  await page.getByRole('dialog', { name: 'Your Estimate' }).getByRole('button', { name: 'Talk to Alex' }).click();
  await expectUntickedBox(page.getByRole('dialog', { name: 'Work with Alex Morgan' }));

  const created = await request.post('/api/estimates', {
    data: { agent_slug: 'alexmorgan', sale_price: 780200, mortgage_payoff: 450000 },
  });
  const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
  await page.goto(`/estimate/${uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Send this to my email' }).click();
  await expectUntickedBox(page.getByRole('dialog', { name: 'Send this to my email' }));
});

test("ticked, the box asks for the home's town, prefilled on a town page and from a detailed estimate's town", async ({
  page,
  request,
}) => {
  await openHomeModal(page, 'Get Estimate', '/long-island-real-estate/massapequa');
  await calculate(page, { firstName: 'Pat', price: '780200', mortgage: '450000' });
  await page.getByRole('dialog', { name: 'Your Estimate' }).getByRole('button', { name: 'Talk to Alex' }).click();
  const contact = page.getByRole('dialog', { name: 'Work with Alex Morgan' });
  await expect(await tickBox(page, contact)).toHaveValue('Massapequa');
  await expectNoAxeViolations(page);

  const created = await request.post('/api/estimates', {
    data: {
      agent_slug: 'alexmorgan',
      sale_price: 780200,
      mortgage_payoff: 450000,
      details: { county: 'Nassau', town: 'Seaford', closing_date: '2027-03-31' },
    },
  });
  expect(created.status()).toBe(201);
  const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
  await page.goto(`/estimate/${uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Send this to my email' }).click();
  const send = page.getByRole('dialog', { name: 'Send this to my email' });
  await expect(await tickBox(page, send)).toHaveValue('Seaford');
  // Unticked again, the input goes: nothing about the place is sent.
  await send.getByRole('checkbox', { name: BOX }).uncheck();
  await expect(send.getByRole('textbox', { name: PLACE })).toHaveCount(0);
});

test.describe('refused confirmation links and places', () => {
  test.use({ consoleErrorsAllowed: REFUSED_IN_CONSOLE });

  test('no town, then an unknown town, is refused under the field, tied to it; a ZIP code then goes through', async ({
    page,
  }, testInfo) => {
    const unlock = await filledUnlock(page, `place.${testInfo.project.name}@example.com`);
    const place = await tickBox(page, unlock);
    const submit = unlock.getByRole('button', { name: 'Unlock My Estimate' });
    await submit.click();
    await expect(place).toHaveAccessibleDescription(`${PLACE_HINT} ${PLACE_MISSING}`);
    await expect(place).toHaveAttribute('aria-invalid', 'true');
    await place.fill('Atlantis');
    await submit.click();
    await expect(place).toHaveAccessibleDescription(`${PLACE_HINT} ${PLACE_UNKNOWN}`);
    await expect(unlock.getByRole('alert').filter({ hasText: PLACE_UNKNOWN })).toBeVisible();
    // Nothing was lost: the form is as the visitor left it, still open.
    await expect(unlock.getByRole('textbox', { name: 'Email' })).toHaveValue(
      `place.${testInfo.project.name}@example.com`,
    );
    await expectNoAxeViolations(page);
    await place.fill('11758');
    await expect(place).not.toHaveAttribute('aria-invalid', 'true');
    await submit.click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Check your inbox to confirm your monthly updates.' }),
    ).toBeVisible();
  });

  test('a confirmation link that is not valid says so, and offers no button', async ({ page }) => {
    await page.goto('/updates/confirm?token=not-a-token');
    const card = page.getByRole('region', { name: 'Monthly updates' });
    await expect(card.getByRole('alert')).toContainText('This confirmation link is not valid.');
    await expect(card.getByRole('button')).toHaveCount(0);
    // A well-formed token the server did not sign: refused by the API, in its words.
    await page.goto(`/updates/confirm?token=MS4wLmNvbmZpcm0.${'A'.repeat(43)}`);
    await card.getByRole('button', { name: 'Yes, send me monthly updates' }).click();
    await expect(card.getByRole('alert')).toContainText('This confirmation link is not valid.');
  });

  test('screenshots: the box on the three forms and the confirmation page, at 390 and 1280 px', async ({
    page,
    request,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'desktop', 'one set of screenshots, both widths, is enough');
    // Seven screens, each opened afresh at both widths: more than one test's usual 30 s.
    test.slow();
    await screenshots(page, 'unlock-form', async () => {
      await calculateOnAgentPage(page);
      await page.getByRole('button', { name: 'Unlock Your Estimate' }).click();
      return page.getByRole('dialog', { name: 'Unlock Your Estimate' });
    });
    await screenshots(page, 'unlock-place', async () => {
      const unlock = await filledUnlock(page, 'shot.place@example.com');
      await tickBox(page, unlock);
      return unlock;
    });
    await screenshots(page, 'unlock-place-error', async () => {
      const unlock = await filledUnlock(page, 'shot.place@example.com');
      await (await tickBox(page, unlock)).fill('Atlantis');
      await unlock.getByRole('button', { name: 'Unlock My Estimate' }).click();
      await expect(unlock.getByRole('alert').filter({ hasText: PLACE_UNKNOWN })).toBeVisible();
      return unlock;
    });
    await screenshots(page, 'contact-form', async () => {
      await openHomeModal(page, 'Get Estimate');
      await calculate(page, { firstName: 'Pat', price: '780200', mortgage: '450000' });
      await page.getByRole('dialog', { name: 'Your Estimate' }).getByRole('button', { name: 'Talk to Alex' }).click();
      return page.getByRole('dialog', { name: 'Work with Alex Morgan' });
    });
    const created = await request.post('/api/estimates', {
      data: { agent_slug: 'alexmorgan', sale_price: 780200, mortgage_payoff: 450000 },
    });
    const uuid = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate.uuid;
    await screenshots(page, 'estimate-form', async () => {
      await page.goto(`/estimate/${uuid}`);
      await waitForIslands(page);
      await page.getByRole('button', { name: 'Send this to my email' }).click();
      return page.getByRole('dialog', { name: 'Send this to my email' });
    });
    const forged = `/updates/confirm?token=MS4wLmNvbmZpcm0.${'A'.repeat(43)}`;
    await screenshots(page, 'confirm-ready', async () => {
      await page.goto(forged);
      await expect(page.getByRole('button', { name: 'Yes, send me monthly updates' })).toBeVisible();
      return page.locator('body');
    });
    await screenshots(page, 'confirm-refused', async () => {
      await page.goto(forged);
      await page.getByRole('button', { name: 'Yes, send me monthly updates' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      return page.locator('body');
    });
  });
});
