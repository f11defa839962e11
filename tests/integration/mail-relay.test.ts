/**
 * Security audit 2026-11-26, finding 2: the lead form and send-estimate mailed an estimate, with its
 * PDF, to any typed address, and the estimate carried a stranger's text (lien labels, other lines'
 * names, the PDF title "Net Sheet for {recipient_name}", the greeting). Now links and addresses are
 * refused in every label, and what goes to a typed address carries only the product's words and
 * the figures; the typed labels stay on the estimate page behind the link.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createResendProvider } from '../../src/features/email/providers/resend.server.ts';
import { startFakeResend, type FakeResend } from '../fakes/resend.ts';
import { apiErrorSchema, expectJson } from '../support/api-suite.ts';
import { signupBody } from '../support/auth-suite.ts';
import { useEmailSuite } from '../support/email-suite.ts';
import { readPdf } from '../support/pdf.ts';
import { leadResponse } from '../support/schemas.ts';

let resend: FakeResend;
beforeAll(async () => {
  resend = await startFakeResend();
});
afterAll(() => resend.close());
afterEach(() => resend.reset());

const created = z.object({ estimate: z.object({ uuid: z.string(), agent_id: z.number() }) });
const sent = z.object({ success: z.literal(true), delivery_id: z.number() });

// Words a stranger typed, without a link (those are refused): none may reach the recipient.
const LIEN = 'URGENT verify your bank account today';
const OTHER = 'Your package is held pay customs now';
const RECIPIENT = 'Dear Customer';

describe('a stranger’s words do not reach a typed address (pglite)', () => {
  const suite = useEmailSuite('pglite', 'mail-relay');

  it.each([
    ['recipient_name', { recipient_name: 'Claim your prize at spam.example' }],
    ['details.liens.0.label', { details: { liens: [{ label: 'verify at phish.example/login', payoff: 1 }] } }],
    [
      'details.other_lines.1.name',
      {
        details: {
          other_lines: [
            { name: 'Repairs', amount: 1 },
            { name: 'call www.x.io', amount: 1 },
          ],
        },
      },
    ],
    ['details.other_lines.0.name', { details: { other_lines: [{ name: 'write to prize@spam.example', amount: 1 }] } }],
    ['details.town', { details: { town: 'phish.example' } }],
  ])('POST /api/estimates refuses a link or an address in %s (400, on the field)', async (field, extra) => {
    const response = await suite.api.postJson('/api/estimates', {
      agent_slug: 'alexmorgan',
      sale_price: 500000,
      mortgage_payoff: 0,
      ...extra,
    });
    const body = await expectJson(response, 400, apiErrorSchema);
    expect(body.fields[field]).toMatch(/cannot contain (a web|an e-mail) address$/);
  });

  it('sign-up refuses a link in an agent’s name or brokerage, which every estimate e-mail of theirs prints', async () => {
    for (const [field, value] of [
      ['first_name', 'Claim your prize at spam.example'],
      ['last_name', 'write to prize@spam.example'],
      ['brokerage', 'https://phish.example Realty'],
    ] as const) {
      const response = await suite.api.postJson('/api/auth/signup', signupBody({ [field]: value }));
      // A name's "@" or "://" is refused first by the one name rule (issue 23, minor 5).
      expect((await expectJson(response, 400, apiErrorSchema)).fields[field], field).toMatch(
        /cannot contain (a web|an e-mail) address$|can only contain letters, spaces, apostrophes, hyphens and periods$/,
      );
    }
  });

  it('POST /api/estimates/reverse and send-estimate refuse them too', async () => {
    const reverse = await suite.api.postJson('/api/estimates/reverse', {
      agent_slug: 'alexmorgan',
      target_net: 300000,
      details: { liens: [{ label: 'http://phish.example', payoff: 1 }] },
    });
    expect((await expectJson(reverse, 400, apiErrorSchema)).fields['details.liens.0.label']).toBe(
      'Lien name cannot contain a web address',
    );
    const send = await suite.api.postJson('/api/email/send-estimate', {
      estimate_uuid: '8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42',
      recipient_email: 'x@example.com',
      recipient_name: 'Claim at prize.net',
    });
    expect((await expectJson(send, 400, apiErrorSchema)).fields.recipient_name).toBe(
      'Name cannot contain a web address',
    );
  });

  it('the lead’s estimate e-mail and send-estimate carry only the product’s words and the figures, in text, html and PDF', async () => {
    suite.useProvider(createResendProvider({ apiKey: resend.apiKey, baseUrl: resend.url }));
    const estimate = (
      await expectJson(
        await suite.api.postJson('/api/estimates', {
          agent_slug: 'alexmorgan',
          sale_price: 500000,
          mortgage_payoff: 0,
          recipient_name: RECIPIENT,
          details: { liens: [{ label: LIEN, payoff: 1 }], other_lines: [{ name: OTHER, amount: 1 }] },
        }),
        201,
        created,
      )
    ).estimate;
    // The audit's step 2: a "lead" naming any recipient, which mails the estimate there.
    const stranger = 'stranger@victim.test';
    const lead = await suite.api.postJson('/api/leads', {
      agent_id: estimate.agent_id,
      first_name: 'Dear',
      last_name: 'Customer',
      email: stranger,
      phone: '5165550000',
      consent_marketing: true,
      estimate_uuid: estimate.uuid,
    });
    await expectJson(lead, 201, leadResponse);
    await suite.settle();
    // Step 3: the extra copy through send-estimate.
    const again = await suite.api.postJson('/api/email/send-estimate', {
      estimate_uuid: estimate.uuid,
      recipient_email: stranger,
      recipient_name: RECIPIENT,
    });
    await expectJson(again, 202, sent);
    await suite.settle();

    const mailed = resend.emails.filter((message) => message.to.some((to) => to.includes(stranger)));
    expect(mailed).toHaveLength(2);
    for (const message of mailed) {
      expect(message.to).toEqual([stranger]);
      for (const part of [message.subject, message.text, message.html]) {
        for (const words of [LIEN, OTHER, RECIPIENT, 'Dear', 'Customer']) expect(part).not.toContain(words);
      }
      expect(message.text).toContain("Hello, here's your estimated net proceeds:");
      expect(message.text).toContain('Lien 1 payoff: -$1.00');
      expect(message.text).toContain('Other cost 1: -$1.00');
      const pdf = await readPdf(new Uint8Array(message.attachments[0]?.content ?? Buffer.alloc(0)));
      expect(pdf.text).toContain('Net sheet');
      expect(pdf.text).toContain('Lien 1 payoff');
      expect(pdf.text).toContain('Other cost 1');
      for (const words of [LIEN, OTHER, RECIPIENT, 'Net Sheet for']) expect(pdf.text).not.toContain(words);
    }
    // The agent's own notice and the estimate page keep the seller's names for their lines.
    const notice = resend.emails.find((message) => message.subject.startsWith('New lead'));
    expect(notice?.text).toContain(`${OTHER}: -$1.00`);
    const page = z
      .object({ estimate: z.object({ sheet: z.object({ lines: z.array(z.object({ label: z.string() })) }) }) })
      .parse(await (await suite.api.fetch(`/api/estimates/${estimate.uuid}`)).json());
    expect(page.estimate.sheet.lines.map((line) => line.label)).toEqual(
      expect.arrayContaining([OTHER, `${LIEN} payoff`]),
    );
  });
});
