/**
 * Faults during a burst of leads (issue 13, part 4): the database drops every connection
 * mid-request, the e-mail provider and Follow Up Boss fail, rate-limit and slow down. Counted after
 * recovery: every lead a visitor was thanked for is stored once; every refusal is a 503 in the
 * API's error shape with nothing stored; every queued e-mail and CRM sync is delivered exactly once.
 * Each scenario prints its counts once (console.info) for the closing note.
 * Decision record: docs/decisions/0023-faults-lose-nothing-and-send-nothing-twice.md.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { leadAnswerSchema } from '../../src/features/leads/lead.ts';
import { FUB_API_KEY_CONTEXT, FUB_SYSTEM_KEY_CONTEXT } from '../../src/features/crm/crm-sync.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { queueEmail } from '../../src/features/email/email.server.ts';
import { deliverQueued, type DeliverOptions } from '../../src/features/email/email-delivery.server.ts';
import { createMailgunProvider } from '../../src/features/email/providers/mailgun.server.ts';
import { createResendProvider, resendIdempotencyKey } from '../../src/features/email/providers/resend.server.ts';
import { unsubscribeLinks, unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import { estimateAttachments } from '../../src/features/email/estimate-attachments.server.ts';
import { estimatePdfFilename, PDF_MESSAGES } from '../../src/features/net-sheet/estimate-pdf.server.ts';
import { WorkersBusy } from '../../src/platform/workers-busy.server.ts';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../../src/app/api-app.ts';
import { DatabaseUnavailable, openNeon, type Db } from '../../src/platform/db.ts';
import { encrypt } from '../../src/platform/encryption.ts';
import { deliverDueEmail, syncDueLeads } from '../../src/app/scheduled-jobs.ts';
import { startFakeFub } from '../fakes/fub.ts';
import { startFakeMailgun } from '../fakes/mailgun.ts';
import { startFakeResend } from '../fakes/resend.ts';
import { apiErrorSchema, expectJson } from '../support/api-suite.ts';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../support/backends.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent, type AgentRow } from '../support/fixtures.ts';
import { startApi, type RunningApi } from '../support/http.ts';
import { startWsProxy, type RunningWsProxy } from '../support/ws-proxy.ts';

const SECRET = 'faults-test-encryption-secret-0123456789';
const AUTH = { sessionKey: Buffer.alloc(32, 7), secureCookies: false };
const FROM = { name: 'Long Island Net Sheet', email: 'leads@example.com' };
const SITE_URL = 'https://netsheet.example.com';
/** The providers' time limit here, and an answer slower than it. */
const LIMIT_MS = 250;
const SLOW_MS = 600;
/**
 * The product as Follow Up Boss asks a service to be: a registered system (X-System and
 * X-System-Key), with FUB's higher rate limits; a lookup after a lost answer uses `GET /v1/events`,
 * whose limit is 20 per 10 s so (10 without).
 */
const SYSTEM = { name: 'LongIslandNetSheet', key: 'faults-test-system-key-0123456789' };

const resend = await startFakeResend();
const mailgun = await startFakeMailgun();
const fub = await startFakeFub();
fub.registerSystem(SYSTEM.name, SYSTEM.key);
afterAll(async () => {
  await Promise.all([resend.close(), mailgun.close(), fub.close()]);
});

type Mail = 'resend' | 'mailgun';

/**
 * Messages the provider took, by delivery id: Resend's by the Idempotency-Key (a replay of a key is
 * not a new message), Mailgun's by the `v:delivery_id` each carries (Mailgun has no idempotency key).
 */
function takenByDelivery(mail: Mail): Map<number, number> {
  const ids =
    mail === 'resend'
      ? resend.emails.map((email) => Number(/^delivery-(\d+)$/.exec(email.idempotencyKey ?? '')?.[1]))
      : mailgun.messages.map((message) => Number(message.variables.delivery_id));
  const taken = new Map<number, number>();
  for (const id of ids) taken.set(id, (taken.get(id) ?? 0) + 1);
  return taken;
}

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

const thankYou = leadAnswerSchema;

/** Three agents: a plain one, one with Follow Up Boss, and one whose page sends the visitor a copy. */
interface Agents {
  plain: AgentRow;
  crm: AgentRow;
  page: AgentRow & { estimateUuid: string };
}

/** The API on `test`'s database with e-mail and CRM, the work it runs after its answers, and what it logged. */
interface Harness {
  test: TestDatabase;
  mail: Mail;
  deps: ReturnType<typeof jobDeps>;
  api: RunningApi;
  agents: Agents;
  afterResponse: Promise<unknown>[];
  logged: unknown[];
}

async function startHarness(test: TestDatabase, mail: Mail, limitMs?: number): Promise<Harness> {
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
async function afterResponsesSettled(harness: Harness): Promise<void> {
  for (let seen = -1; seen !== harness.afterResponse.length;) {
    seen = harness.afterResponse.length;
    await Promise.allSettled(harness.afterResponse);
  }
}

/** A name part for visitor i, in letters as names are (0 → "Aa", 27 → "Bb"). */
const nameFor = (i: number): string =>
  `${String.fromCharCode(65 + (Math.floor(i / 26) % 26))}${String.fromCharCode(97 + (i % 26))}`;

/** One visitor's lead and what they were answered. */
interface Sent {
  email: string;
  agent: AgentRow;
  status: number;
  retryAfter: string | null;
  /** The answer's text. */
  body: string;
}

/** The i-th visitor's form: the contact form for the first two agents, the agent page's form for the third. */
function leadForm(
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
async function burst(
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

/** Lead rows per visitor e-mail. */
async function rowsByEmail(db: Db, emails: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ email: string; n: number }>(
    'SELECT email, count(*)::int AS n FROM leads WHERE email = ANY($1::text[]) GROUP BY email',
    [emails],
  );
  return new Map(rows.map((row) => [row.email, row.n]));
}

interface BurstCounts {
  sent: number;
  thanked: number;
  stored: number;
  refused: number;
}

/**
 * What the visitors were told against what is stored: each 201 is the thank-you for a lead stored
 * exactly once; anything else is a 503 with Retry-After and the API's error shape with a message a
 * visitor understands, and nothing stored for that visitor.
 */
async function checkAnswers(db: Db, sent: readonly Sent[]): Promise<BurstCounts> {
  const rows = await rowsByEmail(
    db,
    sent.map((one) => one.email),
  );
  const thanked = sent.filter((one) => one.status === 201);
  const refused = sent.filter((one) => one.status !== 201);
  for (const one of thanked) {
    thankYou.parse(JSON.parse(one.body));
    expect(rows.get(one.email), `${one.email} was thanked`).toBe(1);
  }
  for (const one of refused) {
    expect(one.status, one.body).toBe(503);
    expect(one.retryAfter).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(apiErrorSchema.parse(JSON.parse(one.body))).toEqual({
      success: false,
      error: DATABASE_UNAVAILABLE_MESSAGE,
      fields: {},
    });
    expect(rows.get(one.email), `${one.email} was refused`).toBeUndefined();
  }
  const stored = [...rows.values()].reduce((sum, n) => sum + n, 0);
  return { sent: sent.length, thanked: thanked.length, stored, refused: refused.length };
}

/**
 * Runs the scheduled deliverer and CRM sync until nothing is due, each round first making every
 * waiting row due now (as if its backoff or Retry-After had passed, and the claim of a sender that
 * died had run out). Call it only once the API's own sends have settled. Answers the rounds taken.
 */
async function runJobsUntilIdle({ test: { db }, deps }: Harness): Promise<number> {
  for (let round = 1; round <= 20; round += 1) {
    await db.query(`UPDATE email_deliveries SET next_attempt_at = now() WHERE status = 'queued'`);
    await db.query(
      `UPDATE crm_syncs SET next_attempt_at = now(),
              claimed_until = CASE WHEN status = 'sending' THEN now() - interval '1 second' END
        WHERE status IN ('queued', 'sending')`,
    );
    await Promise.all([deliverDueEmail(db, deps), syncDueLeads(db, deps)]);
    const [left] = await db.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM email_deliveries WHERE status = 'queued')
             + (SELECT count(*) FROM crm_syncs WHERE status IN ('queued', 'sending')))::int AS n`,
    );
    if (left?.n === 0) return round;
  }
  throw new Error('e-mail or CRM syncs were still due after 20 rounds of the scheduled jobs');
}

interface DeliveryCounts {
  emailsDelivered: number;
  /** Requests the provider received again for a message it had already taken (same Idempotency-Key). */
  replaysAbsorbed: number;
  crmSyncsDelivered: number;
  /** Events Follow Up Boss took more than once for one lead (an answer lost and the event posted again). */
  crmEventsRepeated: number;
  duplicates: number;
}

/**
 * After recovery, for every stored lead of `visitors`: the agent's notice and (agent page) the
 * visitor's copy were each sent once, and received once by the provider; a lead of the Follow Up
 * Boss agent is synced and is one person in Follow Up Boss.
 */
async function checkDeliveries(harness: Harness, visitors: readonly string[]): Promise<DeliveryCounts> {
  const { db } = harness.test;
  const deliveries = await db.query<{
    id: number;
    kind: string;
    status: string;
    attempts: number;
    last_error: string | null;
    visitor: string;
    agent_id: number;
  }>(
    `SELECT d.id, d.kind, d.status, d.attempts, d.last_error, l.email AS visitor, l.agent_id
       FROM email_deliveries d JOIN leads l ON l.id = d.lead_id
      WHERE l.email = ANY($1::text[])`,
    [visitors],
  );
  const leads = await db.query<{ email: string; agent_id: number; synced_to_fub: boolean; status: string | null }>(
    `SELECT l.email, l.agent_id, l.synced_to_fub, s.status
       FROM leads l LEFT JOIN crm_syncs s ON s.lead_id = l.id WHERE l.email = ANY($1::text[])`,
    [visitors],
  );
  const { page, crm } = harness.agents;
  const taken = takenByDelivery(harness.mail);
  let duplicates = 0;
  for (const lead of leads) {
    const own = deliveries.filter((delivery) => delivery.visitor === lead.email);
    const kinds = own.map((delivery) => delivery.kind).sort();
    expect(kinds, lead.email).toEqual(lead.agent_id === page.id ? ['estimate', 'new_lead'] : ['new_lead']);
    for (const delivery of own) {
      const tried = `${delivery.attempts} attempt(s), last error: ${delivery.last_error ?? 'none'}`;
      expect(delivery.status, `${lead.email} ${delivery.kind} (${tried})`).toBe('sent');
      const times = taken.get(delivery.id) ?? 0;
      expect(times, `${lead.email} ${delivery.kind} received`).toBeGreaterThanOrEqual(1);
      duplicates += times - 1;
    }
    if (lead.agent_id === crm.id) {
      expect([lead.status, lead.synced_to_fub], lead.email).toEqual(['synced', true]);
      const people = fub.people().filter((person) => person.emails.some((email) => email.value === lead.email));
      expect(people, lead.email).toHaveLength(1);
      duplicates += people.length - 1;
    } else {
      expect(lead.status, lead.email).toBeNull();
    }
  }
  const crmLeads = leads.filter((lead) => lead.agent_id === crm.id).map((lead) => lead.email);
  const accepted = fub.events.filter((event) => event.status === 200 || event.status === 201);
  const acceptedFor = (email: string) => accepted.filter((event) => JSON.stringify(event.body).includes(`"${email}"`));
  return {
    emailsDelivered: deliveries.length,
    replaysAbsorbed:
      harness.mail === 'resend'
        ? resend.requests.filter((request) => request.status === 200).length - resend.emails.length
        : 0,
    crmSyncsDelivered: crmLeads.filter((email) => acceptedFor(email).length > 0).length,
    crmEventsRepeated: crmLeads.reduce((sum, email) => sum + Math.max(0, acceptedFor(email).length - 1), 0),
    duplicates,
  };
}

describe('the database drops every connection mid-burst (PostgreSQL through the Neon driver)', () => {
  let proxy: RunningWsProxy;
  let test: TestDatabase;
  let harness: Harness;
  /** A connection of its own, to end the API's from inside the database. */
  let side: Db;

  beforeAll(async () => {
    proxy = await startWsProxy();
    test = await openTestDatabase('postgres', 'faults', { wsProxy: proxy.address });
    harness = await startHarness(test, 'resend');
    const [database] = await test.db.query<{ name: string }>('SELECT current_database() AS name');
    const url = new URL(inject('postgresUrl'));
    url.pathname = `/${database?.name ?? ''}`;
    side = openNeon(url.toString(), { wsProxy: proxy.address });
  });

  afterAll(async () => {
    proxy.resume();
    await harness.api.close();
    await side.close();
    await test.close();
    await proxy.stop();
  });

  it('thanks only for stored leads, refuses the rest with a 503 and nothing stored, recovers and then delivers everything once', async () => {
    resend.reset();
    fub.reset();
    const count = 120;

    // 1. The network drops every connection a quarter into the burst; the database itself is fine.
    let cut = 0;
    const dropped = await burst(harness, 'drop', count, (answered) => {
      if (answered === count / 4) cut = proxy.cut();
    });
    expect(cut).toBeGreaterThan(0);
    const drop = await checkAnswers(test.db, dropped);
    // A statement whose connection dropped is sent once more: no visitor is refused for that.
    expect(drop).toEqual({ sent: count, thanked: count, stored: count, refused: 0 });

    // 2. The database goes away a quarter into the burst: every connection ended from inside it
    // (statements under way are rolled back) and no new one accepted, until two thirds are answered.
    await side.query('SELECT 1');
    let ended: Promise<number> = Promise.resolve(0);
    const outage = await burst(harness, 'outage', count, (answered) => {
      if (answered === count / 4) {
        proxy.pause();
        ended = side
          .query<{ n: number }>(
            `SELECT count(pg_terminate_backend(pid))::int AS n
               FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
          )
          .then(([row]) => row?.n ?? 0);
      }
      if (answered === (count * 2) / 3) proxy.resume();
    });
    proxy.resume();
    expect(await ended).toBeGreaterThan(0);
    const down = await checkAnswers(test.db, outage);
    expect(down.refused).toBeGreaterThan(0);
    expect(down.thanked).toBeGreaterThan(0);

    // The pool has recovered: the next visitor is thanked and stored.
    const after = await burst(harness, 'after', 3);
    expect(await checkAnswers(test.db, after)).toEqual({ sent: 3, thanked: 3, stored: 3, refused: 0 });
    // Every failure the API logged was the outage, recognised as such.
    expect(harness.logged.filter((error) => !(error instanceof DatabaseUnavailable))).toEqual([]);

    await afterResponsesSettled(harness);
    const rounds = await runJobsUntilIdle(harness);
    const stored = [...dropped, ...outage, ...after].filter((one) => one.status === 201).map((one) => one.email);
    const delivered = await checkDeliveries(harness, stored);
    const counts = {
      sent: drop.sent + down.sent + after.length,
      thanked: drop.thanked + down.thanked + 3,
      stored: drop.stored + down.stored + 3,
      refused: down.refused,
      connectionsCut: cut,
      connectionsEnded: await ended,
      ...delivered,
      scheduledRounds: rounds,
    };
    console.info(`[faults] database drops: ${JSON.stringify(counts)}`);
    expect(counts.stored).toBe(counts.thanked);
    expect(counts.sent).toBe(counts.thanked + counts.refused);
    expect(delivered.duplicates).toBe(0);
    // Follow Up Boss's answers that could not be recorded during the outage were recorded after it.
    expect(delivered.crmEventsRepeated).toBe(0);
  });
});

// What the burst above met on a loaded machine, one step at a time: an estimate e-mail whose row was
// claimed just before the database went away, so that its PDF could not be read.
type Attachments = NonNullable<DeliverOptions['attachments']>;

describe('the database goes away while an estimate e-mail is being made (PostgreSQL through the Neon driver)', () => {
  let proxy: RunningWsProxy;
  let test: TestDatabase;
  let harness: Harness;
  let options: DeliverOptions;
  let pdfs: Attachments;

  beforeAll(async () => {
    proxy = await startWsProxy();
    test = await openTestDatabase('postgres', 'faults-pdf', { wsProxy: proxy.address });
    harness = await startHarness(test, 'resend');
    pdfs = estimateAttachments(test.db, SITE_URL);
    options = {
      from: FROM,
      unsubscribe: unsubscribeLinks(SITE_URL, unsubscribeSigner(AUTH.sessionKey)),
      attachments: pdfs,
    };
  });

  afterAll(async () => {
    proxy.resume();
    await harness.api.close();
    await test.close();
    await proxy.stop();
  });

  /** A queued copy of the agent page's estimate for a visitor, as a lead queues it. */
  const queueEstimate = (visitor: string) =>
    queueEmail(test.db, {
      kind: 'estimate',
      to: { email: `${visitor}@example.com`, name: 'Dana Visitor' },
      subject: 'Your estimated net proceeds',
      html: '<p>Your estimate</p>',
      text: 'Your estimate',
      estimateUuid: harness.agents.page.estimateUuid,
    });

  /** Attachments made with the database gone: every connection dropped and no new one taken. */
  const withDatabaseGone: Attachments = (delivery) => {
    proxy.pause();
    proxy.cut();
    return pdfs(delivery);
  };

  const deliveryRow = async (id: number) => {
    const [row] = await test.db.query<{ status: string; attempts: number; last_error: string | null }>(
      'SELECT status, attempts, last_error FROM email_deliveries WHERE id = $1',
      [id],
    );
    return row;
  };

  /** What Resend was asked and took for one delivery: each request's status, and the files it kept. */
  const resendSaw = (id: number) => ({
    statuses: resend.requests
      .filter((request) => request.headers['idempotency-key'] === resendIdempotencyKey(id))
      .map((request) => request.status),
    files: resend.emails
      .filter((email) => email.idempotencyKey === resendIdempotencyKey(id))
      .map((email) => email.attachments.map((file) => file.filename)),
  });

  it('is not sent without its PDF while the database is away, spends no attempt, and goes once, with it, after', async () => {
    resend.reset();
    const id = await queueEstimate('visitor.pdf.away');
    const first = await deliverQueued(test.db, harness.deps.email.provider, {
      ...options,
      ids: [id],
      attachments: async (delivery) => {
        try {
          return await withDatabaseGone(delivery);
        } finally {
          proxy.resume();
        }
      },
    });
    expect(first.retrying).toEqual([id]);
    expect(resendSaw(id)).toEqual({ statuses: [], files: [] });
    const waiting = await deliveryRow(id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0 });
    expect(waiting?.last_error).toMatch(/^Not sent yet: the database was unavailable/);

    await test.db.query('UPDATE email_deliveries SET next_attempt_at = now() WHERE id = $1', [id]);
    expect((await deliverQueued(test.db, harness.deps.email.provider, { ...options, ids: [id] })).sent).toEqual([id]);
    expect(resendSaw(id)).toEqual({
      statuses: [200],
      files: [[estimatePdfFilename(harness.agents.page.estimateUuid)]],
    });
    expect(await deliveryRow(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('is not sent without its PDF while every PDF worker is busy, spends no attempt, and goes once, with it, after', async () => {
    resend.reset();
    const id = await queueEstimate('visitor.pdf.busy');
    // What renderInWorker throws when the pool's queue is full (a burst of leads, each with its sheet).
    const busy: Attachments = () => Promise.reject(new WorkersBusy(PDF_MESSAGES.busy));
    const first = await deliverQueued(test.db, harness.deps.email.provider, {
      ...options,
      ids: [id],
      attachments: busy,
    });
    expect(first.retrying).toEqual([id]);
    expect(resendSaw(id)).toEqual({ statuses: [], files: [] });
    const waiting = await deliveryRow(id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0 });
    expect(waiting?.last_error).toMatch(/^Not sent yet: every PDF worker was busy/);

    await test.db.query('UPDATE email_deliveries SET next_attempt_at = now() WHERE id = $1', [id]);
    expect((await deliverQueued(test.db, harness.deps.email.provider, { ...options, ids: [id] })).sent).toEqual([id]);
    expect(resendSaw(id)).toEqual({
      statuses: [200],
      files: [[estimatePdfFilename(harness.agents.page.estimateUuid)]],
    });
  });

  it('still away when the outcome is written: sent once, with its PDF, by the scheduled run after the claim', async () => {
    resend.reset();
    const id = await queueEstimate('visitor.pdf.gone');
    // The claim was taken; the database goes and stays away, so nothing can be recorded either.
    await expect(
      deliverQueued(test.db, harness.deps.email.provider, { ...options, ids: [id], attachments: withDatabaseGone }),
    ).rejects.toBeInstanceOf(DatabaseUnavailable);
    proxy.resume();
    expect(resendSaw(id)).toEqual({ statuses: [], files: [] });

    // As the burst's test does: the claim's lease has run out.
    await test.db.query('UPDATE email_deliveries SET next_attempt_at = now() WHERE id = $1', [id]);
    const report = await deliverDueEmail(test.db, harness.deps);
    expect(report).toMatchObject({ sent: 1, failed: 0 });
    expect(resendSaw(id)).toEqual({
      statuses: [200],
      files: [[estimatePdfFilename(harness.agents.page.estimateUuid)]],
    });
    expect(await deliveryRow(id)).toMatchObject({ status: 'sent' });
  });
});

describe.each(BACKENDS)('the e-mail provider and Follow Up Boss fail during a burst, on %s', (backend) => {
  let test: TestDatabase;
  let harness: Harness;

  beforeAll(async () => {
    test = await openTestDatabase(backend, 'faults-providers');
    harness = await startHarness(test, 'resend', LIMIT_MS);
  });

  afterAll(async () => {
    await harness.api.close();
    await test.close();
  });

  // What the API does when a statement whose answer was lost is sent again on a fresh connection.
  it('a lead sent again is the same lead: one row, one notice and one copy of its estimate', async () => {
    const form = leadForm(harness.agents, 'again', 2);
    const first = await expectJson(await harness.api.postJson('/api/leads', form.body), 201, thankYou);
    const again = await expectJson(await harness.api.postJson('/api/leads', form.body), 201, thankYou);
    expect(again.lead.id).toBe(first.lead.id);
    const queued = await test.db.query<{ kind: string }>(
      `SELECT d.kind FROM email_deliveries d JOIN leads l ON l.id = d.lead_id WHERE l.email = $1 ORDER BY d.kind`,
      [form.email],
    );
    expect(queued.map((row) => row.kind)).toEqual(['estimate', 'new_lead']);
  });

  it('thanks for and stores every lead, then delivers every e-mail and CRM sync exactly once', async () => {
    resend.reset();
    fub.reset();
    // Down, then rate-limited, then slower than our time limit (it still takes the message).
    resend.trouble({ kind: 'server-error', status: 503 }, 15);
    resend.trouble({ kind: 'rate-limit', retryAfter: 1 }, 15);
    resend.trouble({ kind: 'slow', ms: SLOW_MS }, 15);
    fub.trouble({ kind: 'server-error', status: 502 }, 8);
    fub.trouble({ kind: 'rate-limit', retryAfter: 1 }, 8);
    fub.trouble({ kind: 'slow', ms: SLOW_MS }, 8);
    const count = 150;
    const sent = await burst(harness, 'providers', count);
    const answers = await checkAnswers(test.db, sent);
    expect(answers).toEqual({ sent: count, thanked: count, stored: count, refused: 0 });

    await afterResponsesSettled(harness);
    const failed = {
      emailRequestsRefused: resend.requests.filter((request) => request.status !== 200).length,
      crmRequestsRefused: fub.requests.filter((request) => request.status >= 400).length,
    };
    const rounds = await runJobsUntilIdle(harness);
    const delivered = await checkDeliveries(
      harness,
      sent.map((one) => one.email),
    );
    const counts = { ...answers, ...failed, ...delivered, scheduledRounds: rounds };
    console.info(`[faults] providers down, rate-limited and slow on ${backend}: ${JSON.stringify(counts)}`);
    // Every planned fault was met, and the slow answers were sent again and absorbed.
    expect(failed.emailRequestsRefused).toBe(30);
    expect(failed.crmRequestsRefused).toBe(16);
    expect(delivered.replaysAbsorbed).toBeGreaterThan(0);
    expect(delivered.emailsDelivered).toBe(count + count / 3);
    expect(delivered.crmSyncsDelivered).toBe(count / 3);
    expect(delivered.duplicates).toBe(0);
    // Each CRM lead is one inquiry on its person's timeline: an event Follow Up Boss took after our
    // time limit was found by the next attempt, not posted again.
    expect(delivered.crmEventsRepeated).toBe(0);
  });
});

// Mailgun takes no idempotency key: an answer lost to a time limit would mean a second copy
// (decision 0023), so its scenario is down and rate-limited, not slow.
describe('Mailgun fails during a burst, on pglite', () => {
  let test: TestDatabase;
  let harness: Harness;

  beforeAll(async () => {
    test = await openTestDatabase('pglite', 'faults-mailgun');
    harness = await startHarness(test, 'mailgun');
  });

  afterAll(async () => {
    await harness.api.close();
    await test.close();
  });

  it('thanks for and stores every lead, then delivers every e-mail exactly once', async () => {
    mailgun.reset();
    fub.reset();
    mailgun.trouble({ kind: 'server-error', status: 503 }, 15);
    mailgun.trouble({ kind: 'rate-limit', retryAfter: 1 }, 15);
    const count = 90;
    const sent = await burst(harness, 'mailgun', count);
    const answers = await checkAnswers(test.db, sent);
    expect(answers).toEqual({ sent: count, thanked: count, stored: count, refused: 0 });

    await afterResponsesSettled(harness);
    const refused = mailgun.requests.filter((request) => request.status !== 200).length;
    const rounds = await runJobsUntilIdle(harness);
    const delivered = await checkDeliveries(
      harness,
      sent.map((one) => one.email),
    );
    const counts = { ...answers, emailRequestsRefused: refused, ...delivered, scheduledRounds: rounds };
    console.info(`[faults] Mailgun down and rate-limited on pglite: ${JSON.stringify(counts)}`);
    expect(refused).toBe(30);
    expect(delivered.emailsDelivered).toBe(count + count / 3);
    expect(delivered.crmSyncsDelivered).toBe(count / 3);
    expect(delivered.duplicates).toBe(0);
  });
});
