/**
 * Every accepted input counts, with sane bounds (issue 22, part B; decision 0038): the net-sheet
 * audit's D46, D47 and D19 replayed (../shared/audits/net-sheet-2026-11-26.md, M5 and M3), and the
 * newcomer audit's M5 (a closing in 2019, $99,999,999 a day of interest, concessions above the price).
 * Each of these was answered 201 before: refused now with the field to fix, or warned about.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
} from '../../src/features/net-sheet/public/sheet-answer.ts';
import { longIslandDate } from '../../src/features/net-sheet/stored-sheet.ts';
import { addDays } from '../../src/features/net-sheet/detailed-sheet.ts';
import { countRows, createAgent } from '../support/fixtures.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectFieldError, expectJson, useApiSuite } from '../support/api-suite.ts';

const today = () => longIslandDate(new Date());

describe.each(BACKENDS)('guard rails of the net sheet on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-guard-rails');
  const post = (path: string, body: unknown) => suite.api.postJson(path, body);
  const estimate = async (details: Record<string, unknown>, sale_price = 600000) =>
    post('/api/estimates', {
      agent_slug: (await createAgent(suite.db)).slug,
      sale_price,
      mortgage_payoff: 250000,
      details,
    });

  describe('input accepted and ignored (audit M5)', () => {
    it('D46: refuses a Nassau levy with no county, and stores nothing', async () => {
      const before = await countRows(suite.db, 'estimates');
      await expectFieldError(
        await estimate({
          closing_date: '2027-09-15',
          liens: [{ label: 'Mortgage', payoff: 250000 }],
          property_taxes: { nassau_school: { annual: 12000 } },
        }),
        'details.property_taxes.nassau_school.annual',
        'School tax is a Nassau tax: choose Nassau as the county',
      );
      expect(await countRows(suite.db, 'estimates')).toBe(before);
    });

    it('D47: refuses a Nassau levy on a Suffolk home (it was dropped: $2,478.26 overstated)', async () => {
      await expectFieldError(
        await estimate({
          county: 'Suffolk',
          closing_date: '2027-09-15',
          property_taxes: { nassau_school: { annual: 12000 } },
        }),
        'details.property_taxes.nassau_school.annual',
        'School tax is a Nassau tax: leave it out for a Suffolk home',
      );
    });

    it('refuses the Suffolk bill in Nassau, lots outside Suffolk and the RP-5217 with no county', async () => {
      await expectFieldError(
        await estimate({ county: 'Nassau', property_taxes: { suffolk: { annual: 9000 } } }),
        'details.property_taxes.suffolk.annual',
        'The Suffolk property tax is a Suffolk tax: leave it out for a Nassau home',
      );
      await expectFieldError(
        await estimate({ county: 'Nassau', suffolk_lots: 3 }),
        'details.suffolk_lots',
        'Lots count in Suffolk only: choose Suffolk as the county, or leave lots empty',
      );
      await expectFieldError(
        await estimate({ seller_pays_rp5217: true }),
        'details.county',
        'Choose the county: the RP-5217 filing is charged with its closing fees',
      );
    });
  });

  describe('per-diem interest (audit M3)', () => {
    it("D19: refuses per-diem interest without the payoff letter's good-through date", async () => {
      await expectFieldError(
        await estimate({
          county: 'Nassau',
          closing_date: '2027-10-01',
          liens: [{ label: 'M3', payoff: 20000, per_diem_interest: 2.74 }],
        }),
        'details.liens.0.payoff_date',
        'Payoff good-through date is required with per-diem interest: it is on the payoff letter',
      );
    });

    it('charges the days after the given date and names that date, never another', async () => {
      const body = await expectJson(
        await estimate({
          county: 'Nassau',
          closing_date: '2027-10-01',
          liens: [{ label: 'M3', payoff: 20000, per_diem_interest: 2.74, payoff_date: '2027-09-20' }],
        }),
        201,
        detailedEstimateAnswerSchema,
      );
      // Sep 21 - Oct 1, closing day included: 11 days × $2.74.
      expect(body.sheet.lines.find((line) => line.key === 'lien_1_per_diem')).toMatchObject({
        amount: 30.14,
        why: "11 days of per-diem interest after the payoff letter's date, September 20, 2027, closing day included",
      });
    });

    it('refuses $99,999,999 a day, and a payoff letter more than a year before closing', async () => {
      await expectFieldError(
        await estimate({
          closing_date: '2027-03-01',
          liens: [{ label: 'Mortgage', payoff: 250000, per_diem_interest: 99999999, payoff_date: '2027-02-01' }],
        }),
        'details.liens.0.per_diem_interest',
        'Per-diem interest must be at most $250.00 a day (0.1% of the payoff): check the payoff letter',
      );
      await expectFieldError(
        await estimate({
          closing_date: '2027-03-01',
          liens: [{ label: 'Mortgage', payoff: 250000, per_diem_interest: 30, payoff_date: '2026-01-01' }],
        }),
        'details.liens.0.payoff_date',
        'Payoff good-through date is more than a year before closing: use a current payoff letter',
      );
    });
  });

  describe('dates and amounts (newcomer audit M5)', () => {
    it('refuses a closing in 2019 or more than two years ahead, and concessions above the price', async () => {
      await expectFieldError(
        await estimate({ closing_date: '2019-05-05' }),
        'details.closing_date',
        'Closing date is more than a year ago: check the year',
      );
      await expectFieldError(
        await estimate({ closing_date: addDays(today(), 2 * 365 + 1) }),
        'details.closing_date',
        'Closing date must be within two years from today: check the year',
      );
      await expectFieldError(
        await estimate({ seller_concessions: 900000 }, 780000),
        'details.seller_concessions',
        'Seller concessions cannot be more than the sale price',
      );
    });

    it('computes a past closing date and concessions over 10 % as given, and warns of each', async () => {
      const closing = addDays(today(), -10);
      const body = await expectJson(
        await estimate({ closing_date: closing, seller_concessions: 72000 }, 600000),
        201,
        detailedEstimateAnswerSchema,
      );
      expect(body.sheet.closing_date).toBe(closing);
      expect(body.sheet.lines.find((line) => line.key === 'seller_concessions')?.amount).toBe(72000);
      expect(body.sheet.warnings.map(({ key, field }) => [key, field])).toEqual([
        ['past_closing_date', 'closing_date'],
        ['large_concessions', 'seller_concessions'],
      ]);
      expect(body.sheet.warnings[1]?.text).toBe(
        "Seller concessions are 12% of the price: more than 10% is unusual, and a buyer's lender may not allow it. Check the amount with your agent.",
      );
      // The stored estimate says the same when read back.
      const read = await expectJson(
        await suite.api.fetch(`/api/estimates/${body.estimate.uuid}`),
        200,
        z.object({ estimate: detailedEstimateAnswerSchema.shape.estimate }),
      );
      expect(read.estimate.sheet?.warnings).toEqual(body.sheet.warnings);
    });

    it('has no warnings on an ordinary sheet', async () => {
      const body = await expectJson(
        await estimate({ closing_date: addDays(today(), 45), seller_concessions: 5000 }),
        201,
        detailedEstimateAnswerSchema,
      );
      expect(body.sheet.warnings).toEqual([]);
    });

    it('offers: refuses a closing in 2019 and concessions above the offer price, warns of a past closing', async () => {
      const { estimate: saved } = await expectJson(
        await estimate({ county: 'Nassau' }),
        201,
        detailedEstimateAnswerSchema,
      );
      const offer = (extra: Record<string, unknown>) => ({
        price: 780000,
        concessions: 0,
        closing_date: addDays(today(), 30),
        financing: 'conventional',
        ...extra,
      });
      await expectFieldError(
        await post('/api/offers', {
          estimate_uuid: saved.uuid,
          offers: [offer({ closing_date: '2019-05-05' }), offer({})],
        }),
        'offers.0.closing_date',
        'Closing date is more than a year ago: check the year',
      );
      await expectFieldError(
        await post('/api/offers', { estimate_uuid: saved.uuid, offers: [offer({}), offer({ concessions: 900000 })] }),
        'offers.1.concessions',
        'Concessions cannot be more than the offer price',
      );
      const body = await expectJson(
        await post('/api/offers', {
          estimate_uuid: saved.uuid,
          offers: [offer({ closing_date: addDays(today(), -3) }), offer({})],
        }),
        201,
        comparisonAnswerSchema,
      );
      expect(body.comparison.offers.map((compared) => compared.sheet.warnings.map((warning) => warning.key))).toEqual([
        ['past_closing_date'],
        [],
      ]);
    });
  });
});
