/**
 * Security audit of 26 November 2026, finding 9: production started with no e-mail provider, sent
 * through the outbox and printed each message's text, live verification and reset links included,
 * to the log. Now production refuses to start without Resend or complete Mailgun settings, never
 * falls back to the outbox (a message waits, queued, with the reason), and the outbox prints no
 * body in any mode (the local file under DATA_DIR/outbox keeps it for the developer).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordResetEmail, verificationEmail } from '../../src/features/sign-in/public/auth-emails.ts';
import { saveMailgunSettings } from '../../src/features/email/email-settings.server.ts';
import { createOutboxProvider, queueEmail } from '../../src/features/email/public/email.server.ts';
import { deliverQueued } from '../../src/features/email/email-delivery.server.ts';
import { emailFrom, emailProviderProblem } from '../../src/app/compose/email.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { startFakeResend, type FakeResend } from '../fakes/resend.ts';
import { matching } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { deliveryById, TEST_DELIVERY, TEST_SITE_URL, useEmailSuite } from '../support/email-suite.ts';

const ENCRYPTION_KEY = 'production-email-test-encryption-key-0123456789';
const token = () => randomBytes(32).toString('base64url');

const production = (variables: Record<string, string> = {}) =>
  parseEnv({
    APP_ENV: 'production',
    DATABASE_URL: 'postgres://unused.example.com/db',
    SESSION_SECRET: 'production-email-test-session-secret-0123456789',
    ENCRYPTION_KEY,
    URL: TEST_SITE_URL,
    ...variables,
  });

/** Everything console.info printed while `work` ran. */
async function printedDuring(work: () => Promise<unknown>): Promise<string> {
  const spy = vi.spyOn(console, 'info').mockImplementation(() => undefined);
  try {
    await work();
    return spy.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
  } finally {
    spy.mockRestore();
  }
}

describe('the outbox', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nts-outbox-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints no link of an account e-mail, with or without its files; the local file keeps the link', async () => {
    const verify = token();
    const reset = token();
    const messages = [
      verificationEmail({ token: verify, siteUrl: TEST_SITE_URL, firstName: 'Pat' }),
      passwordResetEmail({ token: reset, siteUrl: TEST_SITE_URL, firstName: 'Pat' }),
    ];
    const lines: string[] = [];
    for (const where of [undefined, dir]) {
      const outbox = createOutboxProvider((line) => lines.push(line), where);
      for (const [index, content] of messages.entries()) {
        await outbox.send({
          deliveryId: index + 1,
          from: TEST_DELIVERY.from,
          to: { email: 'pat@agents.test', name: 'Pat Prod' },
          headers: {},
          ...content,
        });
      }
    }
    expect(lines).toHaveLength(4);
    const log = lines.join('\n');
    expect(log).toContain('to "Pat Prod" <pat@agents.test>');
    expect(log).toContain(`Body (links included): ${join(dir, '1.json')}`);
    expect(log).not.toContain(verify);
    expect(log).not.toContain(reset);
    expect(log).not.toContain('token=');
    expect(await readFile(join(dir, '1.json'), 'utf8')).toContain(`/verify-email?token=${verify}`);
    expect(await readFile(join(dir, '2.json'), 'utf8')).toContain(`/reset-password?token=${reset}`);
  });
});

describe.each(BACKENDS)('production e-mail on %s', (backend) => {
  const suite = useEmailSuite(backend, 'production-email');
  let resend: FakeResend;
  beforeAll(async () => {
    resend = await startFakeResend();
  });
  afterAll(async () => {
    await resend.close();
  });
  afterEach(async () => {
    resend.reset();
    await suite.db.query('DELETE FROM email_settings');
  });

  const queueVerification = async (secret: string) =>
    queueEmail(suite.db, {
      kind: 'verify_email',
      to: { email: 'pat@agents.test', name: 'Pat Prod' },
      ...verificationEmail({ token: secret, siteUrl: TEST_SITE_URL, firstName: 'Pat' }),
    });

  it('refuses to start without a provider; Resend or complete Mailgun settings let it; never asked elsewhere', async () => {
    expect(await emailProviderProblem(suite.db, production())).toMatch(
      /^No e-mail provider in production: set RESEND_API_KEY/,
    );
    expect(await emailProviderProblem(suite.db, production({ RESEND_API_KEY: 're_test' }))).toBeUndefined();
    await saveMailgunSettings(suite.db, ENCRYPTION_KEY, {
      domain: 'mg.example.com',
      apiKey: 'fake-mailgun-key-0123456789abcdef',
      fromName: 'Harbor Point Realty',
      fromEmail: 'homes@mg.example.com',
    });
    expect(await emailProviderProblem(suite.db, production())).toBeUndefined();
    // Settings the key cannot read are a reason too, named as such.
    expect(
      await emailProviderProblem(suite.db, production({ ENCRYPTION_KEY: 'another-encryption-key-0123456789abcdef' })),
    ).toMatch(/^The Mailgun settings could not be read/);
    await suite.db.query('DELETE FROM email_settings');
    // Locally (the outbox) and in a deploy preview (the outbox by design, decision 0030): no provider needed.
    expect(await emailProviderProblem(suite.db, parseEnv({}))).toBeUndefined();
    expect(
      await emailProviderProblem(
        suite.db,
        parseEnv(
          {
            SITE_ID: 'site',
            PREVIEW_DATABASE_URL: 'postgres://preview.example.com/db',
            SESSION_SECRET: 'x'.repeat(32),
            ENCRYPTION_KEY,
          },
          { deployContext: 'deploy-preview' },
        ),
      ),
    ).toBeUndefined();
  });

  it('without a provider sends and prints nothing: the message waits, queued, with the reason, no attempt spent', async () => {
    const secret = token();
    const id = await queueVerification(secret);
    const { provider } = emailFrom(production(), suite.db);
    const printed = await printedDuring(async () => {
      expect(await deliverQueued(suite.db, provider, { ...TEST_DELIVERY, ids: [id] })).toEqual({
        sent: [],
        retrying: [id],
        failed: [],
        suppressed: [],
      });
    });
    expect(printed).not.toContain(secret);
    expect(printed).toBe('');
    expect(await deliveryById(suite.db, id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      last_error: matching(/^Not sent: no e-mail provider is configured/),
    });

    // Once Resend is configured, the waiting message goes out with its link.
    const later = new Date(Date.now() + 2 * 60_000);
    const configured = emailFrom(production({ RESEND_API_KEY: resend.apiKey, RESEND_API_URL: resend.url }), suite.db);
    expect(
      await deliverQueued(suite.db, configured.provider, { ...TEST_DELIVERY, ids: [id], now: later }),
    ).toMatchObject({
      sent: [id],
    });
    expect(resend.emails[0]?.text).toContain(`/verify-email?token=${secret}`);
  });

  it('locally the outbox delivers and prints the summary without the link', async () => {
    const secret = token();
    const id = await queueVerification(secret);
    const dataDir = await mkdtemp(join(tmpdir(), 'nts-outbox-'));
    try {
      const { provider } = emailFrom(parseEnv({ DATA_DIR: dataDir }), suite.db);
      const printed = await printedDuring(() => deliverQueued(suite.db, provider, { ...TEST_DELIVERY, ids: [id] }));
      expect(printed).toContain(`[outbox] e-mail #${id}`);
      expect(printed).not.toContain(secret);
      expect(await deliveryById(suite.db, id)).toMatchObject({ status: 'sent', provider: 'outbox' });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
