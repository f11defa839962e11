/**
 * GET /api/offers/{uuid}/pdf over real HTTP, on both backends: the offers side by side, read back as
 * text as the seller would read it; its status codes, its headers and the per-IP allowance of PDFs
 * it shares with the estimate's PDF.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_LIMITS } from '../../src/features/net-sheet/public/estimate-limits.server.ts';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
} from '../../src/features/net-sheet/public/sheet-answer.ts';
import { workerPoolStats } from '../../src/platform/worker-pool.server.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, expectTooMany } from '../support/api-suite.ts';
import { useAuthSuite, type Client } from '../support/auth-suite.ts';
import { readPdf } from '../support/pdf.ts';

describe.each(BACKENDS)('the offers PDF on %s', (backend) => {
  const suite = useAuthSuite(backend, 'offers-pdf');

  /** A detailed Suffolk estimate with a typed lien name, and three offers on it. */
  async function comparison() {
    const { estimate } = await expectJson(
      await suite.client().post('/api/estimates', {
        agent_slug: 'alexmorgan',
        sale_price: 850000,
        recipient_name: 'Pat Seller',
        details: {
          county: 'Suffolk',
          town: 'Huntington',
          closing_date: '2027-03-31',
          liens: [{ label: 'Chase first mortgage', payoff: 400000 }],
          property_taxes: { suffolk: { annual: 12000, first_half_paid: true } },
        },
      }),
      201,
      detailedEstimateAnswerSchema,
    );
    const { comparison: compared } = await expectJson(
      await suite.client().post('/api/offers', {
        estimate_uuid: estimate.uuid,
        offers: [
          { price: 850000, concessions: 0, closing_date: '2027-03-31', financing: 'conventional' },
          { price: 870000, concessions: 15000, buyer_agent_percent: 2, closing_date: '2027-05-01', financing: 'fha' },
          { price: 845000, concessions: 0, closing_date: '2027-03-01', financing: 'cash' },
        ],
      }),
      201,
      comparisonAnswerSchema,
    );
    return compared;
  }

  const getPdf = (uuid: string, client: Client = suite.client()) => client.get(`/api/offers/${uuid}/pdf`);

  it('prints the offers side by side, their nets, the best, and their sheets line by line', async () => {
    const compared = await comparison();
    const renders = workerPoolStats().completed('offers-pdf');
    const response = await getPdf(compared.uuid);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="offers-${compared.uuid}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    // Made in a worker of the pool, as the estimate's PDF.
    expect(workerPoolStats().completed('offers-pdf')).toBe(renders + 1);
    const pdf = await readPdf(new Uint8Array(await response.arrayBuffer()));
    const money = (dollars: number) => `$${dollars.toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    const best = compared.offers.findIndex((offer) => offer.best);
    for (const piece of [
      'Offers side by side',
      'Property Huntington, Suffolk County, NY',
      'Offer 1',
      `Offer ${best + 1} (best net)`,
      '$870,000.00',
      '$15,000.00',
      'FHA',
      'May 1, 2027',
      'Net to seller',
      ...compared.offers.map((offer) => money(offer.net_to_seller)),
      'COMMISSION',
      'MORTGAGES AND LIENS',
      'PROPERTY TAX PRORATIONS',
      'Lien 1 payoff',
      '(631) 555-0142',
      `/offers/${compared.uuid}`,
      'not legal or tax advice',
    ]) {
      expect(pdf.text).toContain(piece);
    }
    // A file travels: the lien's typed name and the seller's name stay on the pages behind the links.
    expect(pdf.text).not.toContain('Chase first mortgage');
    expect(pdf.text).not.toContain('Pat Seller');
    for (const item of pdf.items) expect(item.x + item.width, item.str).toBeLessThanOrEqual(pdf.pageWidth);
  });

  // Issue 22, part F: the offers PDF was rendered on every request, the estimate's once per version
  // of what it prints (estimate_pdfs). Now the same: stored, and made again only when what it prints
  // changes (the comparison's figures, the agent's card), so a changed offer never gets a stale file.
  it('is made once, then served from storage, and made again when what it prints changes', async () => {
    const compared = await comparison();
    const renders = () => workerPoolStats().completed('offers-pdf');
    const before = renders();
    const first = Buffer.from(await (await getPdf(compared.uuid)).arrayBuffer());
    const again = Buffer.from(await (await getPdf(compared.uuid)).arrayBuffer());
    expect(again.equals(first)).toBe(true);
    expect(renders()).toBe(before + 1);
    // A changed offer (its stored figures) is a new version: printed anew, never the stale file.
    await suite.db.query(
      `UPDATE offer_comparisons
          SET comparison = jsonb_set(comparison, '{0,price_cents}', to_jsonb(86123400))
        WHERE uuid = $1`,
      [compared.uuid],
    );
    const changed = await readPdf(new Uint8Array(await (await getPdf(compared.uuid)).arrayBuffer()));
    expect(changed.text).toContain('$861,234.00');
    expect(renders()).toBe(before + 2);
    // So is a change of the agent's card.
    const [agent] = await suite.db.query<{ phone: string | null }>(
      `SELECT phone FROM agents WHERE slug = 'alexmorgan'`,
    );
    await suite.db.query(`UPDATE agents SET phone = '5165550199' WHERE slug = 'alexmorgan'`);
    try {
      const card = await readPdf(new Uint8Array(await (await getPdf(compared.uuid)).arrayBuffer()));
      expect(card.text).toContain('(516) 555-0199');
      expect(renders()).toBe(before + 3);
    } finally {
      await suite.db.query(`UPDATE agents SET phone = $1 WHERE slug = 'alexmorgan'`, [agent?.phone ?? null]);
    }
  });

  it.each([
    ['an unknown uuid', randomUUID()],
    ['a malformed uuid', 'not-a-uuid'],
  ])('answers 404 with the error shape for %s', async (_label, uuid) => {
    await expectError(await getPdf(uuid), 404, 'Offers not found');
  });

  it("answers 429 past the per-IP allowance of PDFs, the estimate PDF's", async () => {
    const compared = await comparison();
    const client = suite.client();
    await suite.db.query(
      `INSERT INTO rate_limits (key, window_start, hits)
       VALUES ($1, to_timestamp(floor(extract(epoch FROM now())::float8 / $2) * $2), $3)`,
      [`estimate-pdf:ip:${client.ip}`, ESTIMATE_LIMITS.pdfsPerIp.windowSeconds, ESTIMATE_LIMITS.pdfsPerIp.limit],
    );
    await expectTooMany(await getPdf(compared.uuid, client), ESTIMATE_LIMITS.pdfsPerIp.windowSeconds);
    expect((await getPdf(compared.uuid)).status).toBe(200);
  });
});
