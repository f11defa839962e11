/**
 * The estimate e-mail carries its net sheet as a PDF, made when the e-mail is sent: through the
 * Resend and Mailgun fakes (which check attachments as the real APIs do), on both backends; and a
 * PDF that cannot be made does not lose the e-mail.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMailgunProvider } from '../../src/features/email/providers/mailgun.server.ts';
import { createResendProvider } from '../../src/features/email/providers/resend.server.ts';
import { startFakeMailgun, type FakeMailgun } from '../fakes/mailgun.ts';
import { startFakeResend, type FakeResend } from '../fakes/resend.ts';
import { expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { deliveryById, useEmailSuite } from '../support/email-suite.ts';
import { createEstimate } from '../support/estimates.ts';
import { readPdf } from '../support/pdf.ts';
import { leadResponse } from '../support/schemas.ts';

const anyBuffer = (): unknown => expect.any(Buffer);
const anyError = (): unknown => expect.any(Error);
const sent = z.object({ success: z.literal(true), delivery_id: z.number() });

let resend: FakeResend;
let mailgun: FakeMailgun;
beforeAll(async () => {
  [resend, mailgun] = await Promise.all([startFakeResend(), startFakeMailgun()]);
});
afterAll(async () => {
  await Promise.all([resend.close(), mailgun.close()]);
});
afterEach(() => {
  resend.reset();
  mailgun.reset();
});

describe('the fakes refuse malformed attachments as the providers do', () => {
  it('Resend: an attachment without content or path is a 422 validation_error', async () => {
    const response = await fetch(`${resend.url}/emails`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${resend.apiKey}`, 'Content-Type': 'application/json', 'User-Agent': 'test' },
      body: JSON.stringify({
        from: 'a@example.com',
        to: 'b@example.com',
        subject: 'Hi',
        text: 'Hello',
        attachments: [{ filename: 'x.pdf' }],
      }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ name: 'validation_error', message: 'Invalid `attachments` field.' });
    expect(resend.emails).toEqual([]);
  });

  it('Mailgun: an `attachment` sent as a plain field rather than a file is a 400', async () => {
    const response = await fetch(`${mailgun.url}/v3/${mailgun.domain}/messages`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`api:${mailgun.apiKey}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        from: 'a@example.com',
        to: 'b@example.com',
        subject: 'Hi',
        text: 'x',
        attachment: 'x',
      }),
    });
    expect(response.status).toBe(400);
    expect(mailgun.messages).toEqual([]);
  });
});

describe.each(BACKENDS)('the estimate e-mail PDF on %s', (backend) => {
  const suite = useEmailSuite(backend, 'estimate-email-pdf');
  let visitors = 0;

  /** The estimate page's flow: a lead for the estimate, then "Send this to my email". */
  async function sendEstimate(
    make: () => Promise<{ uuid: string }> = () => createEstimate(suite.api),
  ): Promise<{ uuid: string; deliveryId: number }> {
    const estimate = await make();
    visitors += 1;
    const email = `pat.seller+${visitors}@example.com`;
    const lead = { name: 'Pat Seller', email, estimate_uuid: estimate.uuid, consent_marketing: true };
    await expectJson(await suite.api.postJson('/api/leads', lead), 201, leadResponse);
    await suite.settle();
    const response = await suite.api.postJson('/api/email/send-estimate', {
      estimate_uuid: estimate.uuid,
      recipient_email: email,
      recipient_name: 'Pat Seller',
    });
    const body = await expectJson(response, 202, sent);
    await suite.settle();
    return { uuid: estimate.uuid, deliveryId: body.delivery_id };
  }

  /** The attachment is the estimate's one-page net sheet. */
  async function expectNetSheet(content: Buffer, uuid: string): Promise<void> {
    const pdf = await readPdf(new Uint8Array(content));
    expect(pdf.pages).toBe(1);
    for (const piece of ['Net sheet', 'Your Net Proceeds', '$279,341.00', 'Alex Morgan', uuid]) {
      expect(pdf.text).toContain(piece);
    }
  }

  it('through Resend: the e-mail carries net-sheet-{uuid}.pdf, base64 as Resend takes it', async () => {
    suite.useProvider(createResendProvider({ apiKey: resend.apiKey, baseUrl: resend.url }));
    const { uuid, deliveryId } = await sendEstimate();
    expect(await deliveryById(suite.db, deliveryId)).toMatchObject({ status: 'sent', provider: 'resend' });
    const email = resend.emails.find((message) => message.subject.startsWith('Your estimated net proceeds'));
    expect(email?.attachments).toEqual([
      { filename: `net-sheet-${uuid}.pdf`, contentType: 'application/pdf', content: anyBuffer() },
    ]);
    await expectNetSheet(email?.attachments[0]?.content ?? Buffer.alloc(0), uuid);
  });

  it('through Mailgun: the e-mail carries the PDF as a multipart `attachment` file', async () => {
    suite.useProvider(createMailgunProvider({ apiKey: mailgun.apiKey, domain: mailgun.domain, baseUrl: mailgun.url }));
    const { uuid, deliveryId } = await sendEstimate();
    expect(await deliveryById(suite.db, deliveryId)).toMatchObject({ status: 'sent', provider: 'mailgun' });
    const message = mailgun.messages.find((sentMessage) =>
      sentMessage.subject.startsWith('Your estimated net proceeds'),
    );
    expect(message?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(message?.attachments).toEqual([
      { filename: `net-sheet-${uuid}.pdf`, contentType: 'application/pdf', content: anyBuffer() },
    ]);
    await expectNetSheet(message?.attachments[0]?.content ?? Buffer.alloc(0), uuid);
    // The lead's notice to the agent carries nothing, and stays a URL-encoded form.
    const notice = mailgun.messages.find((sentMessage) => sentMessage !== message);
    expect(notice?.attachments ?? []).toEqual([]);
  });

  it("a detailed estimate: the e-mail and its PDF tell the sheet's lines and net", async () => {
    suite.useProvider(createResendProvider({ apiKey: resend.apiKey, baseUrl: resend.url }));
    const { uuid } = await sendEstimate(async () => {
      const response = await suite.api.postJson('/api/estimates', {
        agent_slug: 'alexmorgan',
        sale_price: '780,200',
        mortgage_payoff: 450000,
        details: { seller_concessions: 10000, other_lines: [{ name: 'Final water bill', amount: 150 }] },
      });
      return (await expectJson(response, 201, z.object({ estimate: z.object({ uuid: z.string() }) }))).estimate;
    });
    const email = resend.emails.find((message) => message.subject.startsWith('Your estimated net proceeds'));
    // The quick net $279,341 less the $10,000 concessions, the $150 bill and the title closer's $250
    // (the agent's default); the commission is the agent's 3 % + 3 % split of 6 % (the same $46,812).
    const net = '$268,941.00';
    expect(email?.subject).toBe(`Your estimated net proceeds: ${net}`);
    for (const piece of ['Seller concessions: -$10,000.00', 'Other cost 1: -$150.00', `Your Net Proceeds: ${net}`]) {
      expect(email?.text).toContain(piece);
    }
    const pdf = await readPdf(new Uint8Array(email?.attachments[0]?.content ?? Buffer.alloc(0)));
    expect(pdf.text).toContain(net);
    expect(pdf.text).toContain(uuid);
  });

  it('a PDF that cannot be made: the e-mail is still sent, without it, and the error is logged', async () => {
    suite.useProvider(createResendProvider({ apiKey: resend.apiKey, baseUrl: resend.url }));
    // A logo whose stored bytes are not an image (a hand-made change): pdf-lib cannot embed it, so the
    // PDF cannot be made. (The sheet no longer prints the site's editable disclaimer, decision 0040.)
    const hash = 'f'.repeat(64);
    const [saved] = await suite.db.query<{ logo: string | null; show_logo: boolean }>(
      `SELECT logo, show_logo FROM agents WHERE slug = 'alexmorgan'`,
    );
    await suite.db.query(
      `INSERT INTO images (hash, content_type, bytes, width, height) VALUES ($1, 'image/png', $2, 10, 10)
       ON CONFLICT DO NOTHING`,
      [hash, Buffer.from('not a png at all')],
    );
    await suite.db.query(`UPDATE agents SET logo = $1, show_logo = true WHERE slug = 'alexmorgan'`, [
      `/api/images/${hash}.png`,
    ]);
    try {
      const { deliveryId } = await sendEstimate();
      expect(await deliveryById(suite.db, deliveryId)).toMatchObject({
        status: 'sent',
        provider: 'resend',
        attempts: 1,
      });
      const email = resend.emails.find((message) => message.subject.startsWith('Your estimated net proceeds'));
      expect(email?.attachments).toEqual([]);
      const logged = suite.logged.splice(0);
      expect(logged).toEqual([{ error: anyError(), method: 'POST', path: '/api/email/send-estimate' }]);
    } finally {
      await suite.db.query(`UPDATE agents SET logo = $1, show_logo = $2 WHERE slug = 'alexmorgan'`, [
        saved?.logo ?? null,
        saved?.show_logo ?? false,
      ]);
    }
  });
});
