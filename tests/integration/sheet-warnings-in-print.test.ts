/**
 * A sheet's warnings (a closing date already past, concessions over 10 %: guard-rails.ts, decision
 * 0038) wherever the sheet goes, not only on the web page (issue 22, part F): the seller's PDF, the
 * mailed PDF, the offers PDF and the estimate e-mail. A seller who hands the paper to an attorney
 * must read the same "please check" as on the screen. On PGlite: nothing here is the backend's.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { estimateSchema } from '../../src/features/net-sheet/public/estimate-request.ts';
import { estimateEmail, newLeadEmail } from '../../src/features/email/public/templates.ts';
import { escapeHtml } from '../../src/features/email/public/html.ts';
import { estimateAttachments } from '../../src/features/email/estimate-attachments.server.ts';
import {
  comparisonAnswerSchema,
  detailedEstimateAnswerSchema,
} from '../../src/features/net-sheet/public/sheet-answer.ts';
import { longIslandDate } from '../../src/features/net-sheet/stored-sheet.ts';
import { addDays } from '../../src/features/net-sheet/detailed-sheet.ts';
import { expectJson, useApiSuite } from '../support/api-suite.ts';
import { readPdf } from '../support/pdf.ts';

const today = () => longIslandDate(new Date());
const found = z.object({ estimate: estimateSchema });
const agent = { first_name: 'Alex', last_name: 'Morgan', email: 'alex@example.com', phone: null };

describe('a sheet’s warnings in print and in the mail', () => {
  const suite = useApiSuite('pglite', 'sheet-warnings-in-print');

  /** A detailed estimate closing ten days ago with 12 % of concessions: two warnings. */
  async function warnedEstimate() {
    const body = await expectJson(
      await suite.api.postJson('/api/estimates', {
        agent_slug: 'alexmorgan',
        sale_price: 600000,
        mortgage_payoff: 250000,
        details: { county: 'Nassau', closing_date: addDays(today(), -10), seller_concessions: 72000 },
      }),
      201,
      detailedEstimateAnswerSchema,
    );
    const texts = body.sheet.warnings.map((warning) => warning.text);
    expect(texts).toHaveLength(2);
    return { uuid: body.estimate.uuid, texts };
  }

  it('prints them on the downloaded PDF and on the mailed one', async () => {
    const { uuid, texts } = await warnedEstimate();
    const downloaded = await readPdf(
      new Uint8Array(await (await suite.api.fetch(`/api/estimates/${uuid}/pdf`)).arrayBuffer()),
    );
    const [mailed] = await estimateAttachments(suite.db, 'http://127.0.0.1')({ kind: 'estimate', estimateUuid: uuid });
    const mailedText = (await readPdf(new Uint8Array(mailed?.content ?? new Uint8Array()))).text;
    for (const pdf of [downloaded.text, mailedText]) {
      expect(pdf).toContain('PLEASE CHECK');
      for (const text of texts) expect(pdf).toContain(text);
    }
    // The box is compact enough that an ordinary Nassau sheet with both warnings stays on one page.
    expect(downloaded.pages).toBe(1);
    // Above the figures, as on the web sheet: the first warning before the sale price.
    const warning = downloaded.items.find((item) => item.str.startsWith('The closing date'));
    const price = downloaded.items.find((item) => item.str === '$600,000.00');
    expect(warning?.y ?? 0).toBeGreaterThan(price?.y ?? Infinity);
  });

  it('says them in the estimate e-mail and the agent’s new-lead notice, html and text', async () => {
    const { uuid, texts } = await warnedEstimate();
    const { estimate } = await expectJson(await suite.api.fetch(`/api/estimates/${uuid}`), 200, found);
    const mails = [
      estimateEmail({ estimate, agent, siteUrl: 'http://127.0.0.1' }),
      newLeadEmail({
        lead: {
          first_name: 'Pat',
          last_name: 'Seller',
          email: 'pat@example.com',
          phone: null,
          address: null,
          message: null,
          source: 'calculator',
        },
        estimate,
        agent,
        siteUrl: 'http://127.0.0.1',
      }),
    ];
    for (const mail of mails) {
      expect(mail.text).toContain('Please check:');
      expect(mail.html).toContain('Please check');
      for (const text of texts) {
        expect(mail.text).toContain(`- ${text}`);
        expect(mail.html).toContain(escapeHtml(text));
      }
    }
  });

  it('prints each offer’s warnings on the offers PDF, named by its offer', async () => {
    const { uuid } = await warnedEstimate();
    const { comparison } = await expectJson(
      await suite.api.postJson('/api/offers', {
        estimate_uuid: uuid,
        offers: [
          { price: 600000, concessions: 0, closing_date: addDays(today(), 30) },
          { price: 610000, concessions: 0, closing_date: addDays(today(), -3) },
        ],
      }),
      201,
      comparisonAnswerSchema,
    );
    const [warning] = comparison.offers[1]?.sheet.warnings ?? [];
    expect(warning?.key).toBe('past_closing_date');
    const pdf = await readPdf(
      new Uint8Array(await (await suite.api.fetch(`/api/offers/${comparison.uuid}/pdf`)).arrayBuffer()),
    );
    expect(pdf.text).toContain('PLEASE CHECK');
    expect(pdf.text).toContain(`Offer 2: ${warning?.text ?? ''}`);
    expect(pdf.text).not.toContain('Offer 1: The closing date');
  });
});
