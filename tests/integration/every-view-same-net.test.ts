/**
 * Issue 22's "done means": for random estimates, every view of one estimate shows the same net —
 * the quick sheet (GET /api/estimates/{uuid} and its /sheet), the refine form sent unchanged (the
 * form's own draftFrom / detailsFrom), an offer on the estimate's own terms (the offers form's
 * starting values and the sheet's `terms`), the range point at the estimate's price, the PDF text
 * and the e-mail text. Random quick and detailed estimates, for an agent at the system defaults
 * and one with an uneven split (3.25 % + 2 % = 5.25 %). On PGlite only: the views' arithmetic is
 * the same on both backends (the defect tests run on both).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as z from 'zod';
import { estimateSchema } from '../../src/features/net-sheet/public/estimate-request.ts';
import { escapeHtml } from '../../src/features/email/public/html.ts';
import { estimateEmail } from '../../src/features/email/public/templates.ts';
import { netSheetLines } from '../../src/features/net-sheet/public/net-sheet.ts';
import { detailsFrom, draftFrom } from '../../src/features/net-sheet/refine-form.ts';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
  rangeAnswerSchema,
  sheetAnswerSchema,
} from '../../src/features/net-sheet/public/sheet-answer.ts';
import { formatMoney } from '../../src/ui/money.ts';
import { expectJson, useApiSuite } from '../support/api-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { readPdf } from '../support/pdf.ts';

const found = z.object({ estimate: estimateSchema });
const created = z.object({ estimate: estimateSchema });

/** Dollars with cents as a seller types them ("1234.56"), from cents. */
const dollars = (cents: number) => (cents / 100).toFixed(2);

const percent = fc.integer({ min: 0, max: 16 }).map((quarters) => quarters / 4);
const detailsArbitrary = fc.record(
  {
    listing_commission_percent: percent,
    buyer_agent_percent: percent,
    // At most $10,000, the lowest price drawn: concessions above the price are refused (decision 0038).
    seller_concessions: fc.integer({ min: 0, max: 1_000_000 }).map(dollars),
    county: fc.constantFrom('Nassau', 'Suffolk'),
    closing_date: fc.constantFrom('2027-03-31', '2027-07-01', '2027-12-15'),
    title_closer_pickup: fc.boolean(),
    payoff_bank_attorney: fc.boolean(),
    other_lines: fc.constant([{ name: 'Final water bill', amount: '180.50' }]),
    // Issue 22 part W: the withholding lines and the seller's mansion tax, step lines of the price.
    foreign_seller: fc.record({ buyer_residence: fc.boolean() }),
    nonresident_seller: fc.oneof(
      fc.constant({ principal_residence: true }),
      fc.record({ cost_basis: fc.integer({ min: 0, max: 200_000_000 }).map(dollars) }, { requiredKeys: [] }),
    ),
    buyer_exempt_from_mansion_tax: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** A levy's bill, paid or not: unpaid halves past their windows at the closings drawn add penalties (decision 0043). */
const billArbitrary = fc.record({
  annual: fc.integer({ min: 100_00, max: 30_000_00 }).map(dollars),
  first_half_paid: fc.boolean(),
  second_half_paid: fc.boolean(),
});
/** The county's own levies (another county's are refused, decision 0038). */
const taxesArbitrary = fc.record({
  nassau_school: billArbitrary,
  nassau_general: billArbitrary,
  suffolk: billArbitrary,
});

const estimateArbitrary = fc.record({
  agent: fc.constantFrom('system', 'uneven'),
  priceCents: fc.oneof(
    fc.integer({ min: 10_000, max: 3_000_000 }).map((whole) => whole * 100),
    fc.integer({ min: 10_000_00, max: 3_000_000_00 }),
  ),
  payoffShare: fc.integer({ min: 0, max: 60 }),
  details: fc.option(detailsArbitrary, { nil: undefined }),
  taxes: fc.option(taxesArbitrary, { nil: undefined }),
});

type Drawn<A> = A extends fc.Arbitrary<infer T> ? T : never;
const withTaxes = (
  details: Drawn<typeof detailsArbitrary> | undefined,
  taxes: Drawn<typeof taxesArbitrary> | undefined,
) => {
  if (!details || !taxes) return details;
  if (details.county === 'Nassau')
    return { ...details, property_taxes: { nassau_school: taxes.nassau_school, nassau_general: taxes.nassau_general } };
  if (details.county === 'Suffolk') return { ...details, property_taxes: { suffolk: taxes.suffolk } };
  return details;
};

describe('every view of an estimate shows the same net', () => {
  const suite = useApiSuite('pglite', 'every-view-same-net');

  it('quick sheet, refine, offers, range, PDF and e-mail agree for random estimates', async () => {
    const uneven = await createAgent(suite.db);
    await suite.db.query(
      `INSERT INTO agent_settings (agent_id, default_commission_percent, default_listing_percent,
                                   default_buyer_agent_percent)
       VALUES ($1, 5.25, 3.25, 2)`,
      [uneven.id],
    );
    const agents = {
      system: { slug: 'alexmorgan', first_name: 'Alex', last_name: 'Morgan', email: 'alex@example.com', phone: null },
      uneven: { slug: uneven.slug, first_name: 'Una', last_name: 'Even', email: 'una@example.com', phone: null },
    };
    await fc.assert(
      fc.asyncProperty(estimateArbitrary, async ({ agent, priceCents, payoffShare, details: drawn, taxes }) => {
        const { slug } = agents[agent];
        const details = withTaxes(drawn, taxes);
        const payoffCents = Math.floor((priceCents * payoffShare) / 100);
        const { estimate } = await expectJson(
          await suite.api.postJson('/api/estimates', {
            agent_slug: slug,
            sale_price: dollars(priceCents),
            mortgage_payoff: dollars(payoffCents),
            ...(details ? { details } : {}),
          }),
          201,
          created,
        );
        const net = estimate.net_to_seller;

        // The quick sheet: the estimate as read back, and its sheet.
        const read = await expectJson(await suite.api.fetch(`/api/estimates/${estimate.uuid}`), 200, found);
        expect(read.estimate.net_to_seller).toBe(net);
        const sheet = await expectJson(
          await suite.api.fetch(`/api/estimates/${estimate.uuid}/sheet`),
          200,
          sheetAnswerSchema,
        );
        expect(sheet.sheet.net_to_seller).toBe(net);
        // One commission wording (issue 22, part F): the quick sheet's commission lines are the
        // detailed sheet's, word for word, and every other view below prints them too.
        const commissionLabels = sheet.sheet.lines.filter((line) => line.group === 'commission').map((l) => l.label);
        expect(
          netSheetLines(read.estimate)
            .filter((line) => line.group === 'commission')
            .map((line) => line.label),
        ).toEqual(commissionLabels);

        // Refine, sent as the form sends it when the seller changes nothing.
        const draft = draftFrom(read.estimate, sheet.details, sheet.defaults);
        const refined = await expectJson(
          await suite.api.postJson('/api/estimates', {
            agent_slug: slug,
            sale_price: read.estimate.sale_price,
            mortgage_payoff: read.estimate.mortgage_payoff,
            details: detailsFrom(draft, sheet.defaults),
          }),
          201,
          detailedEstimateAnswerSchema,
        );
        expect(refined.sheet.net_to_seller).toBe(net);
        expect(refined.sheet.lines.filter((line) => line.group === 'commission').map((l) => l.label)).toEqual(
          commissionLabels,
        );

        // An offer on the estimate's own terms, as the offers form starts (buyer's side left empty).
        const { terms } = sheet;
        const own = { price: terms.sale_price, concessions: terms.concessions, closing_date: terms.closing_date };
        const { comparison } = await expectJson(
          await suite.api.postJson('/api/offers', {
            estimate_uuid: estimate.uuid,
            offers: [own, { ...own, price: dollars(Math.round(terms.sale_price * 100) + 10_000_00) }],
          }),
          201,
          comparisonAnswerSchema,
        );
        expect(comparison.offers[0]?.net_to_seller).toBe(net);
        expect(comparison.offers[0]?.buyer_agent_percent).toBe(terms.buyer_agent_percent);
        expect(
          comparison.offers[0]?.sheet.lines.filter((line) => line.group === 'commission').map((l) => l.label),
        ).toEqual(commissionLabels);

        // The range point at the estimate's price.
        const range = await expectJson(
          await suite.api.fetch(`/api/estimates/${estimate.uuid}/range?percent=1&points=3`),
          200,
          rangeAnswerSchema,
        );
        expect(range.points[1]).toEqual({ sale_price: read.estimate.sale_price, net_to_seller: net });

        // The PDF and the e-mail, as text (a negative net is told as the amount to bring to closing).
        const told = formatMoney(Math.abs(net));
        const pdf = await readPdf(
          new Uint8Array(await (await suite.api.fetch(`/api/estimates/${estimate.uuid}/pdf`)).arrayBuffer()),
        );
        expect(pdf.text).toContain(told);
        const email = estimateEmail({ estimate: read.estimate, agent: agents[agent], siteUrl: 'http://127.0.0.1' });
        expect(email.text).toContain(told);
        for (const label of commissionLabels) {
          expect(pdf.text).toContain(label);
          expect(email.text).toContain(label);
          expect(email.html).toContain(escapeHtml(label));
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
