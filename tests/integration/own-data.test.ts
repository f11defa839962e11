/**
 * Own data only, for EVERY agent route of the access table (src/app/route-access.ts), so a new
 * route is covered the day it is added: agent B, and an admin, call each route — with agent A's ids
 * put in every place an id could go (path, query, body) — and (1) no answer carries anything of A's,
 * (2) A's rows are exactly as before. Each feature's own tests check the right answers; this one
 * checks that nobody else's data ever leaks or changes.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ROUTE_ACCESS } from '../../src/app/route-access.ts';
import { BACKENDS } from '../support/backends.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { createAgent } from '../support/fixtures.ts';

const agentRoutes = Object.entries(ROUTE_ACCESS)
  .filter(([, access]) => access === 'agent')
  .map(([key]) => key);

describe.each(BACKENDS)('own data only on %s', (backend) => {
  const suite = useAuthSuite(backend, 'own-data');

  /** Agent A: a marker in their name, e-mail and leads, settings, an estimate and leads with an estimate. */
  async function agentA() {
    const marker = `zq${randomBytes(6).toString('hex')}`;
    const agent = await createAgent(suite.db, { first_name: `A${marker}`, email: `${marker}@example.com` });
    await suite.db.query(
      `INSERT INTO agent_settings (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                   transfer_tax_rate_per_1000, default_commission_percent)
       VALUES ($1, 77700, 17700, 7.77, 7.77)`,
      [agent.id],
    );
    const [estimate] = await suite.db.query<{ uuid: string }>(
      `INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                              transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, recipient_name)
       VALUES ($1, 77777700, 100000, 7.77, 7.77, 77700, 17700, $2) RETURNING uuid`,
      [agent.id, `Seller ${marker}`],
    );
    const leads = await suite.db.query<{ id: number }>(
      `INSERT INTO leads (agent_id, first_name, last_name, email, phone, source, consent_marketing, estimate_uuid)
       SELECT $1, 'Lead', $2 || n, $2 || n || '@example.com', '6315550177', 'calculator', true, $3::uuid
         FROM generate_series(1, 3) AS n RETURNING id`,
      [agent.id, marker, estimate?.uuid ?? null],
    );
    // A Follow Up Boss connection, and a lead of theirs synced with a history.
    await suite.db.query(
      `WITH i AS (
         INSERT INTO fub_integrations (agent_id, api_key_encrypted, api_key_masked, active, account_name, user_email)
         VALUES ($1, 'v1:AAAA:BBBB:CCCC', $2, true, $2, $2 || '@example.com') RETURNING agent_id
       ),
       s AS (
         INSERT INTO crm_syncs (lead_id, agent_id, payload, status, person_id, last_error)
         SELECT $3, agent_id, jsonb_build_object('marker', $2::text), 'queued', 7777, 'note ' || $2 FROM i RETURNING id
       )
       INSERT INTO crm_sync_attempts (sync_id, outcome, http_status, error, duration_ms)
       SELECT id, 'unavailable', 503, 'note ' || $2, 5 FROM s`,
      [agent.id, marker, leads[0]?.id],
    );
    return { agent, marker, estimateUuid: estimate?.uuid ?? '', leadIds: leads.map((lead) => lead.id) };
  }

  /** Everything of A's that a route could read or change, as text to compare. */
  const snapshot = async (agentId: number) =>
    JSON.stringify(
      await suite.db.query(
        `SELECT (SELECT row_to_json(a) FROM agents a WHERE a.id = $1) AS agent,
                (SELECT row_to_json(s) FROM agent_settings s WHERE s.agent_id = $1) AS settings,
                (SELECT json_agg(l ORDER BY l.id) FROM leads l WHERE l.agent_id = $1) AS leads,
                (SELECT json_agg(e ORDER BY e.uuid) FROM estimates e WHERE e.agent_id = $1) AS estimates,
                (SELECT row_to_json(i) FROM fub_integrations i WHERE i.agent_id = $1) AS fub,
                (SELECT json_agg(s ORDER BY s.id) FROM crm_syncs s WHERE s.agent_id = $1) AS syncs,
                (SELECT json_agg(t ORDER BY t.id) FROM crm_sync_attempts t
                   JOIN crm_syncs s ON s.id = t.sync_id WHERE s.agent_id = $1) AS attempts`,
        [agentId],
      ),
    );

  /** Calls `key` as `client` with A's ids everywhere an id could go; answers the body text. */
  async function callWithIdsOf(client: Client, key: string, a: Awaited<ReturnType<typeof agentA>>) {
    const [method = 'GET', pattern = ''] = key.split(' ');
    const path = pattern.replace(/:(\w+)/g, (_whole, name: string) =>
      /uuid/.test(name) ? a.estimateUuid : name === 'slug' ? a.agent.slug : String(a.leadIds[0]),
    );
    const ids = {
      agent_id: a.agent.id,
      agentId: a.agent.id,
      id: a.leadIds[0],
      lead_ids: a.leadIds,
      estimate_uuid: a.estimateUuid,
      slug: a.agent.slug,
      email: `${a.marker}@example.com`,
    };
    const query = new URLSearchParams(Object.entries(ids).map(([name, value]) => [name, String(value)]));
    const url = `${path}?${query.toString()}`;
    const response =
      method === 'GET'
        ? await client.get(url)
        : await client.request(url, {
            method,
            headers: { 'content-type': 'application/json', origin: suite.api.origin },
            body: JSON.stringify(ids),
          });
    return `${response.status} ${await response.text()}`;
  }

  it.each([
    ['another agent', false],
    ['an admin', true],
  ])('%s calling every agent route never reads or changes agent A’s data', async (_who, admin) => {
    const a = await agentA();
    const caller = await createAgent(suite.db, { is_admin: admin });
    // The caller's own Follow Up Boss connection is on, so the sync controls get past "connect first".
    await suite.db.query(
      `INSERT INTO fub_integrations (agent_id, api_key_encrypted, api_key_masked, active) VALUES ($1, 'v1:AAAA:BBBB:CCCC', '', true)`,
      [caller.id],
    );
    const client = await clientAs(suite, caller.id);
    const before = await snapshot(a.agent.id);
    expect(agentRoutes.length).toBeGreaterThan(0);
    for (const key of agentRoutes) {
      // Logging out everywhere ends the caller's session: it belongs last.
      if (key === 'POST /api/auth/logout-everywhere') continue;
      const answer = await callWithIdsOf(client, key, a);
      expect(answer, `${key} answered something of agent A's`).not.toContain(a.marker);
      expect(answer, `${key} answered agent A's estimate`).not.toMatch(/777,?777|7\.77/);
      expect(answer.startsWith('5'), `${key} failed: ${answer}`).toBe(false);
    }
    await callWithIdsOf(client, 'POST /api/auth/logout-everywhere', a);
    expect(await snapshot(a.agent.id), 'agent A’s rows changed').toBe(before);
  });
});
