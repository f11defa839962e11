import type { Page } from '@playwright/test';
import { LI_FEE_DEFAULTS } from '../../src/features/net-sheet/li-fees.ts';
import {
  calculateOnAgentPage,
  expect,
  expectNoAxeViolations,
  makeEstimate,
  recordApiCalls,
  test,
  waitForIslands,
  unlockEstimate,
} from './fixtures.ts';

/**
 * The seller's refinement of the worked example ($780,200, $450,000 owed) on the demo agent Alex
 * Morgan (6 % split 3 + 3, $4 per $1,000 transfer tax, $750 attorney; only the title closer pick-up
 * on): a Nassau sale (from the town) closing on 2026-12-15 with two liens accruing per-diem interest,
 * the school tax's first half paid, and a roof repair.
 */
const CLOSING = '2026-12-15';
const LIENS = [
  { label: 'Mortgage', payoff: 450_000_00, perDiem: 45_50, payoffDate: '2026-12-01' },
  { label: 'Home equity line', payoff: 25_000_00, perDiem: 4_25, payoffDate: '2026-12-05' },
];
const PRICE = 780_200_00;
const SCHOOL_TAX = 12_000_00;
const REPAIR = 3_500_00;

const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
const percentOf = (cents: number, percent: number) => Math.round((cents * percent) / 100);
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const money = (cents: number) => usd.format(cents / 100);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The sheet's rows as the research's rules give them, each a cost (positive cents) or a credit (negative). */
function expectedSheet() {
  const fee = (key: keyof typeof LI_FEE_DEFAULTS, count: number) => ({
    label: LI_FEE_DEFAULTS[key].label,
    cents: LI_FEE_DEFAULTS[key].cents * count,
  });
  // The first half of the school year (July to December) is paid: the buyer repays the days from
  // the closing day (theirs) to January 1.
  const schoolHalf = SCHOOL_TAX / 2;
  const schoolCredit = Math.round((schoolHalf * days(CLOSING, '2027-01-01')) / days('2026-07-01', '2027-01-01'));
  const groups: [string | null, { label: string; cents: number }[]][] = [
    [null, [{ label: 'Sale price', cents: -PRICE }]],
    [
      'Commission',
      [
        // Neither side given: the estimate's 6 % as one line, rounded once (decision 0037).
        { label: 'Commission (6%)', cents: percentOf(PRICE, 6) },
      ],
    ],
    [
      'Mortgages and liens',
      LIENS.flatMap((lien) => [
        { label: `${lien.label} payoff`, cents: lien.payoff },
        { label: `${lien.label} interest to closing`, cents: lien.perDiem * days(lien.payoffDate, CLOSING) },
      ]),
    ],
    // $2 for each $500 of the price, a started step counting whole.
    ['Transfer tax', [{ label: 'NYS transfer tax', cents: Math.ceil(PRICE / 500_00) * 2_00 }]],
    [
      'Closing fees',
      [
        { label: 'Attorney fee', cents: 750_00 },
        fee('nassau_satisfaction_recording', 2),
        fee('nassau_block_fee', 2),
        fee('nassau_tax_map_verification', 2),
        fee('tp584_filing', 1),
        fee('title_closer_pickup', 2),
      ],
    ],
    ['Property tax prorations', [{ label: 'School tax proration, 1st half', cents: -schoolCredit }]],
    ['Other costs and credits', [{ label: 'Roof repair', cents: REPAIR }]],
  ];
  const rows = groups.flatMap(([heading, lines]) => [
    ...(heading ? [new RegExp(`^${heading}$`)] : []),
    ...lines.map(({ label, cents }) => {
      const shown =
        label === 'Sale price' ? money(-cents) : cents > 0 ? `−${money(cents)}` : `+${money(-cents)} credit`;
      return new RegExp(`^${escape(label)}.*${escape(shown)}$`);
    }),
  ]);
  const net = -groups.flatMap(([, lines]) => lines).reduce((sum, line) => sum + line.cents, 0);
  return { rows, net: `Your Net Proceeds${money(net)}` };
}

/** Fills the refine form as the seller would, section by section. */
async function refine(page: Page) {
  const form = page.locator('form.refine-form');
  await expect(form.getByRole('heading', { name: 'Refine this estimate' })).toBeFocused();

  // Open from the start: the estimate's payoff is the first lien, to add to.
  const first = form.getByRole('group', { name: 'Lien 1' });
  await expect(first.getByLabel('Name')).toHaveValue('Mortgage');
  await expect(first.getByLabel('Payoff ($)')).toHaveValue('450,000');
  await first.getByLabel('Per-diem interest ($ a day)').fill('45.50');
  await first.getByLabel('Payoff good through').fill(LIENS[0]?.payoffDate ?? '');
  await form.getByRole('button', { name: 'Add a lien' }).click();
  const second = form.getByRole('group', { name: 'Lien 2' });
  await second.getByLabel('Name').fill('Home equity line');
  await second.getByLabel('Payoff ($)').fill('25,000');
  await second.getByLabel('Per-diem interest ($ a day)').fill('4.25');
  await second.getByLabel('Payoff good through').fill(LIENS[1]?.payoffDate ?? '');

  await form.locator('summary', { hasText: 'Commission and concessions' }).click();
  // The agent's split, shown as what an empty field means.
  await expect(form.getByLabel('Listing side (%)')).toHaveAttribute('placeholder', '3');
  await expect(form.getByLabel('Buyer’s agent (%)')).toHaveAttribute('placeholder', '3');

  // Both sides empty: the estimate's 6 % as one line, as the quick sheet shows it (issue 22).
  await expect(form.getByText('Both sides empty: the estimate’s commission (6%) as one line')).toBeVisible();

  // The quick sheet has no title-closer pick-up: the form starts without it and says so (issue 22).
  await form.locator('summary', { hasText: 'Closing fees' }).click();
  const closer = form.getByRole('checkbox', { name: 'Title closer pick-up fee' });
  await expect(closer).not.toBeChecked();
  await expect(form.getByText('Not on this estimate; your agent usually includes it: tick to add it.')).toBeVisible();
  await closer.check();

  await form.locator('summary', { hasText: 'Closing date and place' }).click();
  await form.getByLabel('Closing date').fill(CLOSING);
  await form.getByLabel('Town').fill('Garden City');
  await expect(form.getByLabel('County')).toHaveValue('Nassau');

  await form.locator('summary', { hasText: 'Property taxes' }).click();
  const school = form.getByRole('group', { name: 'School tax' });
  await school.getByLabel('Annual amount ($)').fill('12,000');
  await school.getByLabel('1st half paid').check();

  await form.locator('summary', { hasText: 'Other costs' }).click();
  await form.getByRole('button', { name: 'Add a cost or credit' }).click();
  const cost = form.getByRole('group', { name: 'Line 1' });
  await cost.getByLabel('What it is').fill('Roof repair');
  await cost.getByLabel('Amount ($)').fill('3,500');
  await expectNoAxeViolations(page);
  await shoot(page, 'refine-form');

  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
}

/** Every line of the refined sheet, its net, the closing date and the notes. */
async function expectRefinedSheet(page: Page) {
  const { rows, net } = expectedSheet();
  const sheet = page.locator('.detailed-sheet');
  await expect(sheet.getByRole('row')).toHaveText(rows);
  await expect(sheet.getByTestId('net-proceeds')).toHaveText(net);
  await expect(sheet.getByText('Estimated closing: December 15, 2026')).toBeVisible();
  await expect(sheet.getByText(/FIRPTA/)).toBeVisible();
  await expect(sheet.getByText(/IT-2663/)).toBeVisible();
  await expect(sheet.getByText(/not legal or tax advice/)).toBeVisible();
}

/** The whole page at both widths, into the test's output folder (test-results/) to be looked at. */
async function shoot(page: Page, name: string) {
  if (test.info().project.name !== 'desktop') return;
  const size = page.viewportSize();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

test.describe('a seller refining a shared estimate', () => {
  test('adds the Nassau details, sees every line on a new link, and the link shows the same sheet after a reload', async ({
    page,
  }) => {
    // Two sheets, a reload, print and four screenshots: 19 s alone, past 30 s in CI (2 cores, two browsers).
    test.slow();
    const quick = await makeEstimate(page.request, 'alexmorgan');
    await page.goto(`/estimate/${quick.uuid}`);
    await waitForIslands(page);
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    await shoot(page, 'quick-sheet');

    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    await refine(page);

    // A new estimate: the page moves to its own link.
    await page.waitForURL(
      (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
    );
    await expectRefinedSheet(page);
    await expect(page.getByText('This refined estimate has a link of its own')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download PDF' })).toHaveAttribute(
      'href',
      `${new URL(page.url()).pathname.replace('/estimate/', '/api/estimates/')}/pdf`,
    );
    await expect(page.getByRole('button', { name: 'Send this to my email' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Run another estimate' })).toHaveAttribute('href', '/');
    await expectNoAxeViolations(page);
    await shoot(page, 'detailed-sheet');

    await page.reload();
    await waitForIslands(page);
    await expectRefinedSheet(page);

    // Printed with the form open: the sheet alone, no form and no buttons.
    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('form.refine-form')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Send this to my email' })).toBeHidden();
    await expectRefinedSheet(page);
    await page.emulateMedia({ media: 'screen' });
    // Refining again starts from what the seller gave.
    const form = page.locator('form.refine-form');
    const second = form.getByRole('group', { name: 'Lien 2' });
    await expect(second.getByLabel('Name')).toHaveValue('Home equity line');
    await expect(second.getByLabel('Per-diem interest ($ a day)')).toHaveValue('4.25');
    await form.locator('summary', { hasText: 'Property taxes' }).click();
    const school = form.getByRole('group', { name: 'School tax' });
    await expect(school.getByLabel('Annual amount ($)')).toHaveValue('12,000');
    await expect(school.getByLabel('1st half paid')).toBeChecked();

    // The first link keeps the quick sheet it was shared with.
    await page.goto(`/estimate/${quick.uuid}`);
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
  });

  // Issue 22 (newcomer audit M4a): refining a quick estimate without changing anything nets what it nets.
  test('sent unchanged, the refined sheet nets what the quick estimate nets', async ({ page }) => {
    const quick = await makeEstimate(page.request, 'alexmorgan');
    await page.goto(`/estimate/${quick.uuid}`);
    await waitForIslands(page);
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    const form = page.locator('form.refine-form');
    await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
    await page.waitForURL(
      (url) => /^\/estimate\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(quick.uuid),
    );
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    await expect(page.getByRole('row', { name: /Title closer/ })).toHaveCount(0);
    await expect(page.getByRole('row', { name: /Commission \(6%\)/ }).getByRole('cell')).toHaveText('−$46,812.00');
  });

  test('a wrong figure is shown under its field, in a section opened for it, and nothing is sent', async ({ page }) => {
    const quick = await makeEstimate(page.request, 'alexmorgan');
    const sent = recordApiCalls(page, '/api/estimates');
    await page.goto(`/estimate/${quick.uuid}`);
    await waitForIslands(page);
    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    const form = page.locator('form.refine-form');

    const commission = form.locator('summary', { hasText: 'Commission and concessions' });
    await commission.click();
    await form.getByLabel('Listing side (%)').fill('25');
    await commission.click();
    await expect(form.getByLabel('Listing side (%)')).toBeHidden();
    await form.getByRole('group', { name: 'Lien 1' }).getByLabel('Payoff ($)').fill('lots');
    await form.getByRole('button', { name: 'Show my detailed sheet' }).click();

    const listing = form.getByLabel('Listing side (%)');
    await expect(listing).toBeVisible();
    await expect(listing).toHaveAttribute('aria-invalid', 'true');
    await expect(listing).toHaveAccessibleDescription(/Listing commission must be at most 20%/);
    const payoff = form.getByRole('group', { name: 'Lien 1' }).getByLabel('Payoff ($)');
    await expect(payoff).toHaveAccessibleDescription(/Payoff must be a dollar amount, like 450,000/);
    await expect(form.getByRole('alert').filter({ hasText: 'Please check the fields marked above:' })).toBeVisible();
    await expect(listing).toBeFocused();
    expect(sent).toEqual([]);
    await expectNoAxeViolations(page);
    await shoot(page, 'validation-error');
  });
});

test('a link or an address in a line’s name is refused under its field, and nothing is sent (audit finding 2)', async ({
  page,
}) => {
  const quick = await makeEstimate(page.request, 'alexmorgan');
  const sent = recordApiCalls(page, '/api/estimates');
  await page.goto(`/estimate/${quick.uuid}`);
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Refine this estimate' }).click();
  const form = page.locator('form.refine-form');
  const name = form.getByRole('group', { name: 'Lien 1' }).getByLabel('Name');
  await name.fill('URGENT verify your account at phish.example/login');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/Lien name cannot contain a web address/);
  await expect(form.getByRole('alert').filter({ hasText: 'Please check the fields marked above:' })).toBeVisible();
  expect(sent).toEqual([]);
  await shoot(page, 'lien-name-refused');
  // An ordinary name with punctuation is kept.
  await name.fill('HELOC – Chase (2nd)');
  await form.getByRole('button', { name: 'Show my detailed sheet' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'HELOC – Chase (2nd) payoff' })).toBeVisible();
  await shoot(page, 'lien-name-kept');
});

test.describe('a seller on an agent’s calculator page', () => {
  test('refines the unlocked estimate and sees the detailed sheet in place, with its own link', async ({ page }) => {
    await calculateOnAgentPage(page);
    await unlockEstimate(page, {
      firstName: 'Robin',
      lastName: 'Refiner',
      phone: '6315550123',
      email: 'robin.refiner@example.com',
    });
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$279,341.00');
    const quickPdf = await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href');

    await page.getByRole('button', { name: 'Refine this estimate' }).click();
    await refine(page);

    await expectRefinedSheet(page);
    // The page's URL names the refined estimate, which a reload shows again (issue 23, M2).
    await expect(page).toHaveURL(/\/r\/alexmorgan\?estimate=[0-9a-f-]{36}$/);
    const link = page.getByRole('status').getByRole('link');
    await expect(link).toHaveAttribute('href', /\/estimate\/[0-9a-f-]{36}$/);
    const href = (await link.getAttribute('href')) ?? '';
    const uuid = href.split('/').at(-1) ?? '';
    await expect(page.getByRole('link', { name: 'Download PDF' })).toHaveAttribute(
      'href',
      `/api/estimates/${uuid}/pdf`,
    );
    expect(quickPdf).not.toBe(`/api/estimates/${uuid}/pdf`);
    await expect(page).toHaveURL(new RegExp(`\\?estimate=${uuid}$`));
    await expectNoAxeViolations(page);
    await shoot(page, 'agent-page-refined');

    await page.goto(href);
    await waitForIslands(page);
    await expectRefinedSheet(page);
  });
});
