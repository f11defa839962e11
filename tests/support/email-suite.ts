/**
 * An API suite that delivers e-mail: like useApiSuite, plus the app's e-mail wiring. The provider
 * is the real outbox (its printed lines collected) unless a test swaps in a fake of an outside
 * provider (one that fails, or one that holds every send until released). Work the app runs after
 * a response is collected, so a test can wait for it with `settle()`.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  createOutboxProvider,
  type EmailAddress,
  type EmailProvider,
  type ProviderMessage,
} from '../../src/features/email/public/email.server.ts';
import { type DeliverOptions } from '../../src/features/email/email-delivery.server.ts';
import { unsubscribeLinks, unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import type { AuthConfig } from '../../src/features/auth/public/sessions.server.ts';
import type { AppDeps } from '../../src/app/api-app.ts';
import type { Db } from '../../src/platform/db.ts';
import { openTestDatabase, type Backend, type TestDatabase } from './backends.ts';
import { startApi, type RunningApi } from './http.ts';

export const TEST_FROM: EmailAddress = { name: 'Long Island Net Proceeds', email: 'estimates@example.com' };
export const TEST_SITE_URL = 'https://homes.example.com';
/** The suite's session key (unless a suite passes its own auth); unsubscribe links are signed with it. */
export const TEST_EMAIL_AUTH: AuthConfig = {
  sessionKey: new TextEncoder().encode('test-email-suite-session-key-0123456789'),
  secureCookies: false,
};
/** What deliverQueued needs besides the rows, as the suite's API passes it. */
export const TEST_DELIVERY: Pick<DeliverOptions, 'from' | 'unsubscribe'> = {
  from: TEST_FROM,
  unsubscribe: unsubscribeLinks(TEST_SITE_URL, unsubscribeSigner(TEST_EMAIL_AUTH.sessionKey)),
};

export interface EmailSuite {
  readonly test: TestDatabase;
  readonly db: Db;
  readonly api: RunningApi;
  /** Errors passed to the app's logError since the last test began. */
  readonly logged: { error: unknown; method: string; path: string }[];
  /** What the outbox delivered since the last test began: its printed summary, then the text part. */
  readonly outbox: string[];
  /** Sends go to `provider` until the test ends (then back to the outbox). */
  useProvider(provider: EmailProvider): void;
  /** Waits until all work started after responses has finished. */
  settle(): Promise<void>;
}

/**
 * `extra` adds to the app's dependencies (the auth suite passes its session key and client-IP
 * resolver, a lead-limits suite its notice cap).
 */
/** What a suite's app may add to the e-mail suite's: its outside services and limits. */
export type EmailSuiteExtra = Pick<
  AppDeps,
  | 'auth'
  | 'clientIp'
  | 'leadNoticesPerHour'
  | 'crm'
  | 'crmWaitMs'
  | 'siteBuilds'
  | 'marketFeeds'
  | 'purgeCache'
  | 'leadExportPageRows'
  | 'startBackgroundWork'
  | 'webhooks'
>;

export function useEmailSuite(backend: Backend, label: string, extra: EmailSuiteExtra = {}): EmailSuite {
  let test: TestDatabase | undefined;
  let api: RunningApi | undefined;
  const logged: EmailSuite['logged'] = [];
  const outbox: string[] = [];
  const printed: string[] = [];
  const realOutbox = createOutboxProvider((line) => printed.push(line));
  // The outbox prints no body (its links act as the recipient); a test reads the delivered text
  // (the links it follows) beside the printed summary.
  const outboxProvider: EmailProvider = {
    name: realOutbox.name,
    async send(message) {
      const sent = await realOutbox.send(message);
      // This message's own summary: sends overlap, so the last line printed may be another's.
      const own = printed.findLast((line) => line.includes(`e-mail #${message.deliveryId} `));
      outbox.push([own ?? '', message.text].join('\n'));
      return sent;
    },
  };
  let current: EmailProvider = outboxProvider;
  const provider: EmailProvider = {
    get name() {
      return current.name;
    },
    send: (message) => current.send(message),
  };
  const pending = new Set<Promise<unknown>>();
  const settle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };

  beforeAll(async () => {
    test = await openTestDatabase(backend, label);
    api = await startApi({
      db: test.db,
      siteUrl: TEST_SITE_URL,
      email: { provider, from: TEST_FROM },
      auth: TEST_EMAIL_AUTH,
      ...extra,
      runAfterResponse(task) {
        const tracked: Promise<unknown> = task
          .catch((error: unknown) => logged.push({ error, method: 'after response', path: '' }))
          .finally(() => pending.delete(tracked));
        pending.add(tracked);
      },
      logError: (error, request) => logged.push({ error, method: request.method, path: new URL(request.url).pathname }),
    });
  });
  afterEach(async () => {
    await settle();
    current = outboxProvider;
    outbox.length = 0;
    printed.length = 0;
    const unexpected = logged.splice(0);
    expect(unexpected, 'the API logged an unexpected error').toEqual([]);
  });
  afterAll(async () => {
    await settle();
    await api?.close();
    await test?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useEmailSuite: used before beforeAll ran');
    return value;
  };
  return {
    get test() {
      return ready(test);
    },
    get db() {
      return ready(test).db;
    },
    get api() {
      return ready(api);
    },
    logged,
    outbox,
    useProvider(next) {
      current = next;
    },
    settle,
  };
}

/** A fake outside provider that refuses every message, as one that is down or misconfigured. */
export function failingProvider(message = 'Provider unavailable (503)'): EmailProvider & { calls: number } {
  const fake = {
    name: 'failing-fake',
    calls: 0,
    send(): Promise<{ providerMessageId: string }> {
      fake.calls += 1;
      return Promise.reject(new Error(message));
    },
  };
  return fake;
}

/** A fake outside provider that records each message and answers after `delayMs`. */
export function recordingProvider(delayMs = 0): EmailProvider & { sent: ProviderMessage[] } {
  const sent: ProviderMessage[] = [];
  return {
    name: 'recording-fake',
    sent,
    async send(message: ProviderMessage) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      sent.push(message);
      return { providerMessageId: `rec-${message.deliveryId}-${sent.length}` };
    },
  };
}

/** A fake outside provider that holds every send until `release()`. */
export function heldProvider(): EmailProvider & { started: number; release(): void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const fake = {
    name: 'held-fake',
    started: 0,
    async send(message: ProviderMessage) {
      fake.started += 1;
      await gate;
      return { providerMessageId: `held-${message.deliveryId}` };
    },
    release: () => open(),
  };
  return fake;
}

export interface DeliveryRow {
  id: number;
  kind: string;
  to_email: string;
  to_name: string | null;
  subject: string;
  html: string;
  text: string;
  status: 'queued' | 'sent' | 'failed' | 'suppressed';
  provider: string | null;
  attempts: number;
  last_error: string | null;
  provider_message_id: string | null;
  lead_id: number | null;
  estimate_uuid: string | null;
  /** next_attempt_at - now(), in seconds, by the database's clock. */
  due_in_seconds: number;
  sent_at: Date | null;
}

const DELIVERY_COLUMNS = `id, kind, to_email, to_name, subject, html, text, status, provider, attempts, last_error,
  provider_message_id, lead_id, estimate_uuid::text AS estimate_uuid,
  extract(epoch FROM next_attempt_at - now())::float8 AS due_in_seconds, sent_at`;

export async function deliveriesOfLead(db: Db, leadId: number): Promise<DeliveryRow[]> {
  return db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM email_deliveries WHERE lead_id = $1 ORDER BY id`, [
    leadId,
  ]);
}

export async function deliveryById(db: Db, id: number): Promise<DeliveryRow | undefined> {
  const [row] = await db.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM email_deliveries WHERE id = $1`, [id]);
  return row;
}

export async function countDeliveries(db: Db): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_deliveries');
  return row?.n ?? 0;
}
