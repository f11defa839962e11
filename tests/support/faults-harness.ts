/**
 * The harness of the fault scenarios (tests/integration/faults-*.test.ts): the Resend, Mailgun and
 * Follow Up Boss fakes (started when a scenario file imports this module, closed after its tests),
 * the API and the scheduled jobs' dependencies against them, three agents, and a burst of leads
 * from distinct visitors.
 */
import { afterAll } from 'vitest';
import { leadAnswerSchema } from '../../src/features/leads/public/lead.ts';
import { FUB_API_KEY_CONTEXT, FUB_SYSTEM_KEY_CONTEXT } from '../../src/features/crm/public/crm-sync.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { createMailgunProvider } from '../../src/features/email/providers/mailgun.server.ts';
import { createResendProvider } from '../../src/features/email/providers/resend.server.ts';
import type { Db } from '../../src/platform/db.ts';
import { encrypt } from '../../src/platform/encryption.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { startFakeMailgun } from '../fakes/mailgun.ts';
import { startFakeResend } from '../fakes/resend.ts';
import type { TestDatabase } from './backends.ts';
import { createEstimate } from './estimates.ts';
import { createAgent, type AgentRow } from './fixtures.ts';
import { startApi, type RunningApi } from './http.ts';

const SECRET = 'faults-test-encryption-secret-0123456789';
export const AUTH = { sessionKey: Buffer.alloc(32, 7), secureCookies: false };
export const FROM = { name: 'Long Island Net Sheet', email: 'leads@example.com' };
export const SITE_URL = 'https://netsheet.example.com';
/** The providers' time limit here, and an answer slower than it. */
export const LIMIT_MS = 250;
export const SLOW_MS = 600;
/**
 * The product as Follow Up Boss asks a service to be: a registered system (X-System and
 * X-System-Key), with FUB's higher rate limits; a lookup after a lost answer uses `GET /v1/events`,
 * whose limit is 20 per 10 s so (10 without).
 */
const SYSTEM = { name: 'LongIslandNetSheet', key: 'faults-test-system-key-0123456789' };

export const resend = await startFakeResend();
export const mailgun = await startFakeMailgun();
export const fub = await startFakeFub();
fub.registerSystem(SYSTEM.name, SYSTEM.key);
afterAll(async () => {
  await Promise.all([resend.close(), mailgun.close(), fub.close()]);
});

export type Mail = 'resend' | 'mailgun';

/**
 * The app's and the scheduled jobs' dependencies, as netlify/functions build them, against the
 * fakes, with e-mail through `mail`; `limitMs` is the time limit of a call to either provider (their defaults without it).
 */
const jobDeps = (db: Db, mail: Mail, limitMs?: number) => ({
  db,
  siteUrl: SITE_URL,
  email: {
    provider:
      mail === 'resend'
        ? createResendProvider({ apiKey: resend.apiKey, baseUrl: resend.url, timeoutMs: limitMs })
        : createMailgunProvider({
            apiKey: mailgun.apiKey,
            domain: mailgun.domain,
            baseUrl: mailgun.url,
            timeoutMs: limitMs,
          }),
    from: FROM,
  },
  auth: AUTH,
  crm: { client: fubClient(fub.url), secret: SECRET, timeoutMs: limitMs },
});

export const thankYou = leadAnswerSchema;

/** Three agents: a plain one, one with Follow Up Boss, and one whose page sends the visitor a copy. */
export interface Agents {
  plain: AgentRow;
  crm: AgentRow;
  page: AgentRow & { estimateUuid: string };
}

/** The API on `test`'s database with e-mail and CRM, the work it runs after its answers, and what it logged. */
export interface Harness {
  test: TestDatabase;
  mail: Mail;
  deps: ReturnType<typeof jobDeps>;
  api: RunningApi;
  agents: Agents;
  afterResponse: Promise<unknown>[];
  logged: unknown[];
}

export async function startHarness(test: TestDatabase, mail: Mail, limitMs?: number): Promise<Harness> {
  const afterResponse: Promise<unknown>[] = [];
  const logged: unknown[] = [];
  const deps = jobDeps(test.db, mail, limitMs);
  const api = await startApi({
    db: test.db,
    logError: (error) => logged.push(error),
    siteUrl: SITE_URL,
    email: deps.email,
    auth: AUTH,
    crm: deps.crm,
    // Every lead of a burst goes to three agents: no notice cap in the way.
    leadNoticesPerHour: 100_000,
    runAfterResponse: (task) => afterResponse.push(task),
  });
  const [plain, crm, page] = [await createAgent(test.db), await createAgent(test.db), await createAgent(test.db)];
  await test.db.query(
    `INSERT INTO fub_integrations (agent_id, api_key_encrypted, api_key_masked, system, system_key_encrypted, active)
     VALUES ($1, $2, '', $3, $4, true)`,
    [
      crm.id,
      encrypt(fub.apiKey, SECRET, FUB_API_KEY_CONTEXT),
      SYSTEM.name,
      encrypt(SYSTEM.key, SECRET, FUB_SYSTEM_KEY_CONTEXT),
    ],
  );
  const estimate = await createEstimate(api, page.slug);
  const agents = { plain, crm, page: { ...page, estimateUuid: estimate.uuid } };
  return { test, mail, deps, api, agents, afterResponse, logged };
}

/** Waits for the e-mail and CRM sends the API started after its answers (each settles by itself). */
export async function afterResponsesSettled(harness: Harness): Promise<void> {
  for (let seen = -1; seen !== harness.afterResponse.length;) {
    seen = harness.afterResponse.length;
    await Promise.allSettled(harness.afterResponse);
  }
}

/** A name part for visitor i, in letters as names are (0 → "Aa", 27 → "Bb"). */
const nameFor = (i: number): string =>
  `${String.fromCharCode(65 + (Math.floor(i / 26) % 26))}${String.fromCharCode(97 + (i % 26))}`;

/** One visitor's lead and what they were answered. */
export interface Sent {
  email: string;
  agent: AgentRow;
  status: number;
  retryAfter: string | null;
  /** The answer's text. */
  body: string;
}

/** The i-th visitor's form: the contact form for the first two agents, the agent page's form for the third. */
export function leadForm(
  { plain, crm, page }: Agents,
  run: string,
  i: number,
): { agent: AgentRow; email: string; body: unknown } {
  const email = `visitor.${run}.${i}@example.com`;
  if (i % 3 === 2) {
    const body = {
      agent_id: page.id,
      first_name: 'Dana',
      last_name: `Visitor ${nameFor(i)}`,
      email,
      phone: '(631) 555-0142',
      consent_marketing: true,
      estimate_uuid: page.estimateUuid,
    };
    return { agent: page, email, body };
  }
  const agent = i % 3 === 0 ? plain : crm;
  const body = {
    agent_slug: agent.slug,
    firstName: 'Chris',
    lastName: `Visitor ${nameFor(i)}`,
    phone: '5165550123',
    email,
    consent_marketing: true,
  };
  return { agent, email, body };
}

/**
 * Sends `count` leads at once, from distinct visitors; `onAnswered(n)` runs as the n-th answer
 * arrives, so a fault can be injected when a share of the burst is done (a condition, not a delay).
 */
export async function burst(
  harness: Harness,
  run: string,
  count: number,
  onAnswered: (answered: number) => void = () => undefined,
): Promise<Sent[]> {
  let answered = 0;
  return Promise.all(
    Array.from({ length: count }, async (_, i): Promise<Sent> => {
      const { agent, email, body } = leadForm(harness.agents, run, i);
      const response = await harness.api.postJson('/api/leads', body);
      const text = await response.text();
      answered += 1;
      onAnswered(answered);
      return { email, agent, status: response.status, retryAfter: response.headers.get('retry-after'), body: text };
    }),
  );
}
