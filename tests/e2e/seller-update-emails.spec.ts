import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  sellerActiveEmail,
  sellerUpdateEmail,
  updateConfirmEmail,
  type RecentSaleLine,
  type UpdateAgent,
} from '../../src/features/seller-updates/public/update-emails.ts';
import { withUnsubscribeFooter } from '../../src/features/email/unsubscribe-footer.ts';
import { expect, test } from './fixtures.ts';

/**
 * The seller-update e-mails in a real browser (issue 25: "readable on a phone; tested in a real
 * browser"): each html, as delivered (with the unsubscribe line deliverQueued adds), set as the
 * page at a phone's and a computer's size. No server: the templates are pure, so the spec is fast.
 */

const agent: UpdateAgent = {
  first_name: 'Alexandra',
  last_name: 'Montgomery-Whitfield',
  email: 'alexandra.montgomery-whitfield@longislandhomes.example.com',
  phone: '6315550142',
  slug: 'alexandra-montgomery-whitfield',
};
const siteUrl = 'https://homes.example.com';
const go = (token: string) => `${siteUrl}/api/updates/go/${token.repeat(4)}`;

const sales: RecentSaleLine[] = [
  {
    address: '1234 North Wantagh Avenue, Unit 12B',
    priceCents: 61_200_000,
    soldDate: '2026-11-03',
    beds: 3,
    baths: 2.5,
    sqft: 1450,
  },
  { address: '8 Bay Drive', priceCents: null, soldDate: '2026-10-21', beds: 2, baths: 1, sqft: null },
  { address: '40 Main Road', priceCents: 1_249_900_000, soldDate: '2026-09-30', beds: null, baths: null, sqft: null },
];

const update = {
  agent,
  placeName: 'Massapequa',
  priceCents: 81_230_000,
  netCents: 28_334_134,
  previousNetCents: 27_914_134,
  direction: 'Home values in Massapequa rose 1.2% over the last three months.',
  sales,
  links: { sheet: go('c2hlZXQ'), agent: go('YWdlbnQ') },
  asOf: '2026-11-27',
  siteUrl,
};

const EMAILS = [
  { name: 'update', email: sellerUpdateEmail(update), buttons: ['See my updated sheet', 'Talk to Alexandra'] },
  {
    name: 'update-negative-sample',
    email: sellerUpdateEmail({
      ...update,
      netCents: -1_250_000,
      previousNetCents: null,
      direction: null,
      sample: true,
    }),
    buttons: ['See my updated sheet', 'Talk to Alexandra'],
  },
  {
    name: 'confirm',
    email: updateConfirmEmail({
      agent,
      priceCents: 78_020_000,
      netCents: 27_934_100,
      confirmUrl: go('Y29uZmlybQ'),
      siteUrl,
    }),
    buttons: ['Yes, send me monthly updates'],
  },
  {
    name: 'active',
    email: sellerActiveEmail({
      agent,
      lead: { first_name: 'Dana', last_name: 'Lopez', email: 'dana.lopez@example.com', phone: '5165550123' },
      reasons: ['two_clicks', 'rerun', 'higher_net'],
      netCents: 28_334_134,
      leadUrl: `${siteUrl}/dashboard/leads?lead=42`,
      siteUrl,
    }),
    buttons: ['Open the lead'],
  },
];

/** Each project renders at one size: the phone project (touch, a phone's pixel ratio) at 390 x 844. */
const sizeOf = (project: string) => (project === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 800 });

async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help}`);
}

for (const { name, email, buttons } of EMAILS) {
  test(`the ${name} e-mail reads at this project's size, without sideways scrolling`, async ({ page }, testInfo) => {
    const delivered = withUnsubscribeFooter(email, `${siteUrl}/unsubscribe?token=abc`);
    const size = sizeOf(testInfo.project.name);
    await page.setViewportSize(size);
    await page.setContent(delivered.html);
    // A phone shrinks a page wider than its screen to fit, which widens innerWidth with it: so the
    // page must also keep the width it was given, or a too-wide card would pass.
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
    }));
    expect(widths.inner, 'the page is not shrunk to fit').toBe(size.width);
    expect(widths.scroll, `no sideways scrolling at ${size.width}px`).toBeLessThanOrEqual(widths.inner);
    for (const label of buttons) {
      const box = await page.getByRole('link', { name: label, exact: true }).boundingBox();
      expect(box, `${label} is shown`).not.toBeNull();
      expect(box?.height ?? 0, `${label} is tall enough to tap`).toBeGreaterThanOrEqual(44);
    }
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Looked at, not compared (test-results/ is not committed).
    await page.screenshot({ path: testInfo.outputPath(`${name}-${size.width}.png`), fullPage: true });
  });
}
