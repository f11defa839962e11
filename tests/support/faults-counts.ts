/**
 * What a fault scenario counts (tests/integration/faults-*.test.ts): the visitors' answers against
 * the stored leads, the scheduled jobs run until nothing is due, and every e-mail and CRM sync of
 * the stored leads delivered, and received by the fakes, exactly once.
 */
import { expect } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE } from '../../src/app/api-app.ts';
import { deliverDueEmail, syncDueLeads } from '../../src/app/scheduled-jobs.ts';
import type { Db } from '../../src/platform/db.ts';
import { apiErrorSchema } from './api-suite.ts';
import { fub, mailgun, resend, thankYou, type Harness, type Mail, type Sent } from './faults-harness.ts';

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

/** Lead rows per visitor e-mail. */
async function rowsByEmail(db: Db, emails: readonly string[]): Promise<Map<string, number>> {
  const rows = await db.query<{ email: string; n: number }>(
    'SELECT email, count(*)::int AS n FROM leads WHERE email = ANY($1::text[]) GROUP BY email',
    [emails],
  );
  return new Map(rows.map((row) => [row.email, row.n]));
}

export interface BurstCounts {
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
export async function checkAnswers(db: Db, sent: readonly Sent[]): Promise<BurstCounts> {
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
export async function runJobsUntilIdle({ test: { db }, deps }: Harness): Promise<number> {
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

export interface DeliveryCounts {
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
export async function checkDeliveries(harness: Harness, visitors: readonly string[]): Promise<DeliveryCounts> {
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
