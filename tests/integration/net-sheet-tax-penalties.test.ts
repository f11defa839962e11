/**
 * Penalties on an overdue tax half, through the API (issue 22, part P; decision 0043): an estimate
 * with an unpaid half past its penalty-free window shows the penalty line and the warning, stored and
 * read back, printed in the PDF, and the net is the old net less the penalty. Worked figures from
 * the sources cited in src/features/net-sheet/tax-penalties.test.ts (Islip Receiver: 1 % a month or
 * part after January 10; Suffolk County Tax Act §13-a; Hempstead Receiver's schedule).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { detailedEstimateAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { readPdf } from '../support/pdf.ts';
import { createAgent } from '../support/fixtures.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectJson, useApiSuite } from '../support/api-suite.ts';

describe.each(BACKENDS)('penalties on an overdue tax half on %s', (backend) => {
  const suite = useApiSuite(backend, 'net-sheet-tax-penalties');
  const estimate = async (details: Record<string, unknown>) =>
    expectJson(
      await suite.api.postJson('/api/estimates', {
        agent_slug: (await createAgent(suite.db)).slug,
        sale_price: 600000,
        mortgage_payoff: 250000,
        details,
      }),
      201,
      detailedEstimateAnswerSchema,
    );

  it('Suffolk, 1st half unpaid on March 15: a 3 % line, the warning, the net less the penalty', async () => {
    const details = { county: 'Suffolk', closing_date: '2027-03-15' };
    const paid = await estimate({
      ...details,
      property_taxes: { suffolk: { annual: 12000, first_half_paid: true } },
    });
    const unpaid = await estimate({ ...details, property_taxes: { suffolk: { annual: 12000 } } });

    // Jan 11-Feb 10 1 %, Feb 11-Mar 10 2 %, Mar 11-Apr 10 3 %: 3 % of the $6,000 1st half.
    expect(unpaid.sheet.lines.filter((line) => line.group === 'proration')).toEqual([
      expect.objectContaining({ key: 'tax_suffolk' }),
      {
        key: 'tax_suffolk_1_penalty',
        label: 'Penalty on the overdue property tax, 1st half',
        amount: 180,
        why: 'Payable without penalty until January 10, 2027; then 1% for each month or part of a month after it: 3 months to the closing, 3% of $6,000.00',
        group: 'proration',
      },
    ]);
    expect(paid.sheet.lines.some((line) => line.key.endsWith('_penalty'))).toBe(false);
    // The 1st half unpaid moves the proration by the $6,000 not paid, and the penalty by $180.
    expect(unpaid.sheet.net_to_seller).toBeCloseTo(paid.sheet.net_to_seller - 6000 - 180, 2);
    expect(unpaid.sheet.net_to_seller).toBeCloseTo(-unpaid.sheet.lines.reduce((sum, line) => sum + line.amount, 0), 2);
    expect(unpaid.estimate.net_to_seller).toBe(unpaid.sheet.net_to_seller);

    expect(unpaid.sheet.warnings).toEqual([
      {
        key: 'overdue_tax_suffolk_1',
        field: 'property_taxes.suffolk.first_half_paid',
        text: 'The 1st half of the property tax is past due: it was payable without penalty until January 10, 2027, so the sheet adds the penalty owed at closing ($180.00). If it has been paid, mark it paid.',
      },
    ]);
    expect(paid.sheet.warnings).toEqual([]);

    // Stored with the sheet: read back the same, and printed in the PDF.
    const read = await expectJson(
      await suite.api.fetch(`/api/estimates/${unpaid.estimate.uuid}`),
      200,
      z.object({ estimate: detailedEstimateAnswerSchema.shape.estimate }),
    );
    expect(read.estimate.sheet).toEqual(unpaid.sheet);
    const pdf = await readPdf(
      new Uint8Array(await (await suite.api.fetch(`/api/estimates/${unpaid.estimate.uuid}/pdf`)).arrayBuffer()),
    );
    expect(pdf.text).toContain('Penalty on the overdue property tax, 1st half');
    expect(pdf.text).toContain('$180.00');
  });

  it('Suffolk after May 31: the Comptroller on both halves; Nassau after the levy closed: the Treasurer', async () => {
    // $6,000 × 5 % = $300, and 1 % a month from February 1 to June (5) on $6,300: $315.
    const suffolk = await estimate({
      county: 'Suffolk',
      closing_date: '2027-06-15',
      property_taxes: { suffolk: { annual: 12000 } },
    });
    expect(suffolk.sheet.lines.filter((line) => line.key.endsWith('_penalty')).map((line) => line.amount)).toEqual([
      615, 615,
    ]);
    expect(suffolk.sheet.warnings.map((warning) => warning.text)).toEqual([
      expect.stringContaining('It is now paid to the Suffolk County Comptroller.'),
      expect.stringContaining('The 2nd half of the property tax is past due'),
    ]);

    // Hempstead: school 2nd half due April 1, free to May 10; June is the 3rd month: 3 % of $5,000.
    const nassau = await estimate({
      county: 'Nassau',
      closing_date: '2027-06-15',
      property_taxes: { nassau_school: { annual: 10000, first_half_paid: true } },
    });
    expect(nassau.sheet.lines.find((line) => line.key === 'tax_nassau_school_2_penalty')?.amount).toBe(150);
    expect(nassau.sheet.warnings.map((warning) => warning.key)).toEqual(['overdue_tax_nassau_school_2']);
    expect(nassau.sheet.warnings[0]?.text).toContain('the Nassau County Treasurer, who may add a charge of its own');
  });
});
