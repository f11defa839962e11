/**
 * GET /api/estimates/{uuid}/pdf over real HTTP, on both backends: the printable net sheet read back
 * as text, as the seller would read it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { detailedEstimateAnswerSchema } from '../../src/features/net-sheet/public/sheet-answer.ts';
import { processImage } from '../../src/features/images/public/images.server.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { png } from '../support/images.ts';
import { readPdf } from '../support/pdf.ts';
import { estimateResponse } from '../support/schemas.ts';
import { estimateAttachments } from '../../src/features/email/estimate-attachments.server.ts';

describe.each(BACKENDS)('the estimate PDF on %s', (backend) => {
  const suite = useApiSuite(backend, 'estimate-pdf');
  const createEstimate = async (body: Record<string, unknown>) =>
    (await expectJson(await suite.api.postJson('/api/estimates', body), 201, estimateResponse)).estimate;
  const getPdf = (uuid: string) => suite.api.fetch(`/api/estimates/${uuid}/pdf`);

  it('prints every line with its amount, the net, the agent, the date, the link and the disclaimer', async () => {
    const estimate = await createEstimate({
      agent_slug: 'alexmorgan',
      sale_price: 780200,
      mortgage_payoff: 450000,
      recipient_name: 'Pat Seller',
    });
    const response = await getPdf(estimate.uuid);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="net-sheet-${estimate.uuid}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
    expect(pdf.pages).toBe(1);
    expect(pdf.pageWidth).toBe(612);
    // The seller downloads it from their own estimate page, which shows the name already; the mailed
    // twin never carries it (finding 2; mail-relay.test.ts).
    expect(pdf.text).toContain('Prepared for Pat Seller');
    for (const piece of [
      'Net sheet',
      'COMMISSION',
      'MORTGAGES AND LIENS',
      'TRANSFER TAX',
      'CLOSING FEES',
      'Sale Price',
      '$780,200.00',
      'Mortgage Payoff',
      '-$450,000.00',
      'Commission (6%)',
      '-$46,812.00',
      'Transfer Tax',
      '-$3,122.00',
      'Attorney Fee',
      '-$750.00',
      'Recording Fee',
      '-$175.00',
      'Your Net Proceeds',
      '$279,341.00',
      'Alex Morgan',
      `/estimate/${estimate.uuid}`,
      'not legal or tax advice',
      // The agent's phone as the site shows it (newcomer audit, minor 14: it printed "5165550100").
      '(631) 555-0142',
    ]) {
      expect(pdf.text).toContain(piece);
    }
    // The site's footer disclaimer speaks of its marketing figures: not the seller's sheet's words.
    expect(pdf.text).not.toContain('Marketing performance data');
    const newYorkDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'America/New_York' }).format(
      new Date(estimate.created_at),
    );
    expect(pdf.text).toContain(`Estimated on ${newYorkDate}`);
  });

  it("prints a detailed estimate's every line, its closing date and its notes", async () => {
    const response = await suite.api.postJson('/api/estimates', {
      agent_slug: 'alexmorgan',
      sale_price: 1000000,
      details: {
        county: 'Nassau',
        town: 'Southampton',
        closing_date: '2027-03-31',
        listing_commission_percent: 2.5,
        buyer_agent_percent: 2,
        liens: [{ label: 'First mortgage', payoff: 400000 }],
        property_taxes: { nassau_school: { annual: 10000, first_half_paid: true } },
        other_lines: [{ name: 'Final water bill', amount: 120 }],
      },
    });
    const { estimate } = await expectJson(response, 201, detailedEstimateAnswerSchema);
    const pdf = await readPdf(new Uint8Array(await (await getPdf(estimate.uuid)).arrayBuffer()));
    for (const piece of [
      // The head: the property and the closing date before any figure.
      'Property Southampton, Nassau County, NY',
      'Estimated closing March 31, 2027',
      'PROPERTY TAX PRORATIONS',
      'OTHER COSTS AND CREDITS',
      'Listing commission (2.5%)',
      '-$25,000.00',
      "Buyer's agent (2%)",
      '-$20,000.00',
      // The seller's names of their lines stay on the page; the PDF numbers them (finding 2).
      'Lien 1 payoff',
      '-$400,000.00',
      'Block fee',
      // The Jan-Jun half, unpaid: the seller owes Jan 1 - Mar 30, 89 of 181 days of $5,000.
      'School tax proration, 2nd half',
      '-$2,458.56',
      'Other cost 1',
      '-$120.00',
      'mansion tax',
      'Peconic Bay',
      'FIRPTA',
    ]) {
      expect(pdf.text).toContain(piece);
    }
    expect(pdf.text).not.toContain('Commission (6%)');
  });

  it('prints a paid tax half as a credit, with its plus and the word, as the web sheet does', async () => {
    const response = await suite.api.postJson('/api/estimates', {
      agent_slug: 'alexmorgan',
      sale_price: 800000,
      details: {
        county: 'Suffolk',
        closing_date: '2027-02-15',
        liens: [{ label: 'First mortgage', payoff: 300000 }],
        property_taxes: { suffolk: { annual: 12000, first_half_paid: true, second_half_paid: true } },
      },
    });
    const { estimate } = await expectJson(response, 201, detailedEstimateAnswerSchema);
    const credit = estimate.sheet?.lines.find((line) => line.group === 'proration' && line.amount < 0);
    expect(credit).toBeDefined();
    const pdf = await readPdf(new Uint8Array(await (await getPdf(estimate.uuid)).arrayBuffer()));
    const amount = (-(credit?.amount ?? 0)).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(pdf.text).toContain(`+$${amount} credit`);
  });

  // Security audit 2026-11-26, finding 2: a file mailed to a typed address carries no typed words.
  it('mails a twin with neither the name nor the town, and keeps serving the named one for download', async () => {
    const response = await suite.api.postJson('/api/estimates', {
      agent_slug: 'alexmorgan',
      sale_price: 700000,
      recipient_name: 'Pat Seller',
      details: { county: 'Suffolk', town: 'Greenport', closing_date: '2027-03-31' },
    });
    const { estimate } = await expectJson(response, 201, detailedEstimateAnswerSchema);
    const downloaded = await readPdf(new Uint8Array(await (await getPdf(estimate.uuid)).arrayBuffer()));
    expect(downloaded.text).toContain('Prepared for Pat Seller');
    expect(downloaded.text).toContain('Property Greenport, Suffolk County, NY');
    const [attachment] = await estimateAttachments(
      suite.db,
      'https://homes.example.com',
    )({
      kind: 'estimate',
      estimateUuid: estimate.uuid,
    });
    const mailed = await readPdf(new Uint8Array(attachment?.content ?? []));
    expect(mailed.text).toContain('Property Suffolk County, NY');
    expect(mailed.text).toContain('Estimated closing March 31, 2027');
    expect(mailed.text).not.toContain('Pat Seller');
    expect(mailed.text).not.toContain('Greenport');
    expect(mailed.text).toContain('The buyer pays the Peconic Bay tax on an East End sale');
    expect(downloaded.text).toContain('In Greenport (Town of Southold) the buyer pays the Peconic Bay tax');
    // The mailed twin is not stored over the downloaded one.
    const again = await readPdf(new Uint8Array(await (await getPdf(estimate.uuid)).arrayBuffer()));
    expect(again.text).toContain('Prepared for Pat Seller');
  });

  it('dates the sheet in New York, not UTC', async () => {
    const estimate = await createEstimate({ agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 0 });
    // 02:30 UTC on January 2 is still January 1 in New York.
    await suite.db.query(`UPDATE estimates SET created_at = '2026-01-02T02:30:00Z' WHERE uuid = $1`, [estimate.uuid]);
    const pdf = await readPdf(new Uint8Array(await (await getPdf(estimate.uuid)).arrayBuffer()));
    expect(pdf.text).toContain('Estimated on January 1, 2026');
  });

  it('cuts a 200-character name with an ellipsis and keeps every piece of text on the page', async () => {
    const longName = `${'Bartholomew-Maximilian '.repeat(9)}Ze`.slice(0, 200);
    const agent = await createAgent(suite.db, {
      first_name: longName,
      last_name: 'Q',
      brokerage: `${'Very Long Brokerage Name '.repeat(8)}`.trim(),
    });
    const estimate = await createEstimate({ agent_slug: agent.slug, sale_price: 650000, mortgage_payoff: 100000 });
    const pdf = await readPdf(new Uint8Array(await (await getPdf(estimate.uuid)).arrayBuffer()));
    expect(pdf.text).toContain('Bartholomew-Maximilian');
    expect(pdf.text).toContain('…');
    for (const item of pdf.items) {
      expect(item.x, item.str).toBeGreaterThanOrEqual(0);
      expect(item.x + item.width, item.str).toBeLessThanOrEqual(pdf.pageWidth);
    }
  });

  it("shows the agent's photo only while the agent shows it", async () => {
    const agent = await createAgent(suite.db);
    const photo = await processImage(await png(80, 80), { accepts: ['png'], output: 'jpeg', maxSide: 400 });
    await suite.db.query(
      `INSERT INTO images (hash, content_type, bytes, width, height) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [photo.hash, photo.contentType, photo.bytes, photo.width, photo.height],
    );
    await suite.db.query(`UPDATE agents SET profile_photo = $2, show_profile_photo = false WHERE id = $1`, [
      agent.id,
      photo.url,
    ]);
    const estimate = await createEstimate({ agent_slug: agent.slug, sale_price: 650000, mortgage_payoff: 0 });
    const hasImage = async () =>
      Buffer.from(await (await getPdf(estimate.uuid)).arrayBuffer())
        .toString('latin1')
        .includes('/Subtype /Image');
    expect(await hasImage()).toBe(false);
    await suite.db.query('UPDATE agents SET show_profile_photo = true WHERE id = $1', [agent.id]);
    expect(await hasImage()).toBe(true);
  });

  it.each([
    ['an unknown uuid', randomUUID()],
    ['a malformed uuid', 'not-a-uuid'],
  ])('answers 404 with the error shape for %s', async (_label, uuid) => {
    await expectError(await getPdf(uuid), 404, 'Estimate not found');
  });
});
