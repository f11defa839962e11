/**
 * The local Resend and Mailgun fakes and what the e-mail provider suites build on them: the
 * providers' clients pointed at the fakes, the environment the server would parse, and per backend
 * an e-mail suite with the queue, delivery and Mailgun settings helpers. Each suite file starts its
 * own fakes (vitest runs every file in its own worker).
 */
import { createServer } from 'node:http';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { saveMailgunSettings } from '../../src/features/email/email-settings.server.ts';
import type { MailgunSettingsInput } from '../../src/features/email/email-settings.ts';
import {
  ProviderError,
  queueEmail,
  type EmailProvider,
  type OutgoingEmail,
  type ProviderMessage,
} from '../../src/features/email/public/email.server.ts';
import { deliverQueued } from '../../src/features/email/email-delivery.server.ts';
import { createMailgunProvider } from '../../src/features/email/providers/mailgun.server.ts';
import { createResendProvider } from '../../src/features/email/providers/resend.server.ts';
import { withUnsubscribeFooter } from '../../src/features/email/unsubscribe-footer.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { startFakeMailgun, type FakeMailgun } from '../fakes/mailgun.ts';
import { startFakeResend, type FakeResend } from '../fakes/resend.ts';
import type { Backend } from './backends.ts';
import { TEST_DELIVERY, TEST_FROM, useEmailSuite } from './email-suite.ts';

export const ENCRYPTION_KEY = 'test-encryption-key-for-email-providers-0001';
export const OTHER_ENCRYPTION_KEY = 'another-encryption-key-that-was-not-used-0002';
export const MAILGUN_FROM = { name: 'Harbor Point Realty', email: 'homes@mg.example.com' };
export const TEST_FROM_HEADER = `"${TEST_FROM.name}" <${TEST_FROM.email}>`;

/** A URL nothing listens on: a port the system just gave out and took back. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return `http://127.0.0.1:${address.port}`;
}

let started: { resend: FakeResend; mailgun: FakeMailgun; unreachable: string } | undefined;
const running = () => {
  if (started === undefined) throw new Error('useProviderFakes: used before beforeAll ran');
  return started;
};

/** The running fakes, and a URL nothing listens on; valid once useProviderFakes' beforeAll ran. */
export const fakes = {
  get resend(): FakeResend {
    return running().resend;
  },
  get mailgun(): FakeMailgun {
    return running().mailgun;
  },
  get unreachable(): string {
    return running().unreachable;
  },
};

/** Starts the fakes for the calling file, and forgets what they received after each test. */
export function useProviderFakes(): void {
  beforeAll(async () => {
    const [resend, mailgun, unreachable] = await Promise.all([startFakeResend(), startFakeMailgun(), closedPortUrl()]);
    started = { resend, mailgun, unreachable };
  });
  afterAll(async () => {
    await Promise.all([fakes.resend.close(), fakes.mailgun.close()]);
  });
  afterEach(() => {
    fakes.resend.reset();
    fakes.mailgun.reset();
  });
}

export const resendProvider = (options: { apiKey?: string; baseUrl?: string; timeoutMs?: number } = {}) =>
  createResendProvider({ apiKey: fakes.resend.apiKey, baseUrl: fakes.resend.url, ...options });
export const mailgunProvider = (
  options: { apiKey?: string; baseUrl?: string; domain?: string; timeoutMs?: number } = {},
) =>
  createMailgunProvider({
    apiKey: fakes.mailgun.apiKey,
    domain: fakes.mailgun.domain,
    baseUrl: fakes.mailgun.url,
    ...options,
  });

/** The environment as the server would parse it, with the fakes as the providers' base URLs. */
export const envWith = (variables: Record<string, string> = {}) =>
  parseEnv({
    RESEND_API_URL: fakes.resend.url,
    MAILGUN_API_URL: fakes.mailgun.url,
    ENCRYPTION_KEY,
    ...variables,
  });

export const providerMessage = (to = 'dana@example.com', deliveryId = 1): ProviderMessage => ({
  deliveryId,
  from: TEST_FROM,
  to: { email: to, name: 'Dana Lopez' },
  subject: 'Your estimated net proceeds: $279,341.00',
  html: '<p>Hello Dana</p>',
  text: 'Hello Dana',
  headers: {},
});

/** What a send is rejected with. */
export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected the send to be rejected');
}

export const completeSettings: MailgunSettingsInput = {
  domain: 'mg.example.com',
  apiKey: 'fake-mailgun-key-0123456789abcdef',
  fromName: MAILGUN_FROM.name,
  fromEmail: MAILGUN_FROM.email,
};

/**
 * An e-mail suite on `backend` whose Mailgun settings are cleared after each test, with the
 * helpers that queue, deliver and read back a message.
 */
export function useProviderSuite(backend: Backend, label: string) {
  const suite = useEmailSuite(backend, label);

  afterEach(async () => {
    await suite.db.query('DELETE FROM email_settings');
  });

  const message = (to: string, name: string | null = 'Dana Lopez'): OutgoingEmail => ({
    kind: 'estimate',
    to: { email: to, name },
    subject: `Your estimate, ${to}`,
    html: `<p>Hello <b>${to}</b></p>`,
    text: `Hello ${to}`,
  });
  return {
    suite,
    message,
    queue: (to = 'dana@example.com', name?: string | null) => queueEmail(suite.db, message(to, name)),
    /** The message as sent: with the recipient's unsubscribe footer. */
    sentContent: (to: string) =>
      withUnsubscribeFooter({ html: message(to).html, text: message(to).text }, TEST_DELIVERY.unsubscribe(to).page),
    /** RFC 8058 one-click unsubscribe, on every message. */
    unsubscribeHeaders: (to: string) => ({
      'List-Unsubscribe': `<${TEST_DELIVERY.unsubscribe(to).oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    }),
    deliver: (provider: EmailProvider, ids: number[], now?: Date) =>
      deliverQueued(suite.db, provider, { ...TEST_DELIVERY, ids, ...(now ? { now } : {}) }),
    nextAttemptAt: async (id: number): Promise<number> => {
      const [row] = await suite.db.query<{ next_attempt_at: Date }>(
        'SELECT next_attempt_at FROM email_deliveries WHERE id = $1',
        [id],
      );
      return row?.next_attempt_at.getTime() ?? Number.NaN;
    },
    later: (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000),
    saveSettings: (input: MailgunSettingsInput) => saveMailgunSettings(suite.db, ENCRYPTION_KEY, input),
  };
}
