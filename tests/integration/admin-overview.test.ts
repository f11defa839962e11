/**
 * GET /api/admin/overview and GET /api/admin/activity over real HTTP on both backends: the site's
 * figures equal the rows behind them across every agent, the activity is the site's newest, named
 * by agent, in order and capped; each answer costs one round trip; and only admins get them.
 */
import { describe, expect, it } from 'vitest';
import { adminActivityResponseSchema, adminOverviewResponseSchema } from '../../src/features/admin/admin-overview.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { insertEstimate, insertLead, insertSentEmail } from '../support/activity-rows.ts';
import { clientAs, useAuthSuite, type AuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;

async function newAdmin(suite: AuthSuite, name = { first_name: 'Alex', last_name: 'Admin' }) {
  const admin = await createAgent(suite.db, { ...name, is_admin: true });
  return admin;
}

/** The site's figures straight from the tables, to compare the answer with. */
async function figuresInTables(suite: AuthSuite) {
  const [row] = await suite.db.query<{ leads: number; estimates: number; active: number }>(
    `SELECT (SELECT count(*)::int FROM leads) AS leads, (SELECT count(*)::int FROM estimates) AS estimates,
            (SELECT count(*)::int FROM agents WHERE status = 'active') AS active`,
  );
  if (!row) throw new Error('no figures');
  return row;
}

/** Estimates and leads per New York week (its Monday, YYYY-MM-DD), straight from the tables. */
async function weeksInTables(suite: AuthSuite, table: 'leads' | 'estimates'): Promise<Map<string, number>> {
  const rows = await suite.db.query<{ week: string; n: number }>(
    `SELECT to_char(date_trunc('week', created_at AT TIME ZONE 'America/New_York'), 'YYYY-MM-DD') AS week,
            count(*)::int AS n
       FROM ${table} GROUP BY 1`,
  );
  return new Map(rows.map(({ week, n }) => [week, n]));
}

describe.each(BACKENDS)('the admin overview on %s', (backend) => {
  const suite = useAuthSuite(backend, 'admin-overview');

  it('sums every agent’s estimates and leads, counts active agents, in one round trip', async () => {
    const admin = await newAdmin(suite);
    const agents = [await createAgent(suite.db), await createAgent(suite.db)];
    await createAgent(suite.db, { status: 'inactive' });
    await createAgent(suite.db, { status: 'pending' });
    const now = Date.now();
    for (const [index, agent] of agents.entries()) {
      for (const daysAgo of [0, 8, 40, 13 * 7]) await insertEstimate(suite.db, agent.id, new Date(now - daysAgo * DAY));
      for (const daysAgo of [0, 20]) {
        await insertLead(suite.db, agent.id, new Date(now - daysAgo * DAY), `Lead${index} Seller${daysAgo}`);
      }
    }

    const client = await clientAs(suite, admin.id);
    const before = suite.db.roundTrips;
    const response = await client.get('/api/admin/overview');
    expect(suite.db.roundTrips - before).toBe(1);
    const { overview } = await expectJson(response, 200, adminOverviewResponseSchema);

    const tables = await figuresInTables(suite);
    expect(tables.estimates).toBeGreaterThanOrEqual(8);
    expect(overview.leads_total).toBe(tables.leads);
    expect(overview.estimates_total).toBe(tables.estimates);
    expect(overview.active_agents).toBe(tables.active);
    expect(overview.conversion_percent).toBe(Math.round((tables.leads * 1000) / tables.estimates) / 10);

    const [estimates, leads] = [await weeksInTables(suite, 'estimates'), await weeksInTables(suite, 'leads')];
    expect(overview.weeks).toHaveLength(12);
    for (const week of overview.weeks) {
      expect(week).toEqual({
        week_start: week.week_start,
        estimates: estimates.get(week.week_start) ?? 0,
        leads: leads.get(week.week_start) ?? 0,
      });
    }
    // This week (the last) has both agents' estimates of today.
    expect(overview.weeks.at(-1)?.estimates).toBeGreaterThanOrEqual(2);
  });

  it('lists the site’s newest estimates, leads, e-mails, CRM syncs and agents with the agent’s name, newest first', async () => {
    const admin = await newAdmin(suite);
    const dana = await createAgent(suite.db, { first_name: 'Dana', last_name: 'North' });
    const sam = await createAgent(suite.db, { first_name: 'Sam', last_name: 'South' });
    // A year ahead, so that this test's rows are the site's newest whatever else the suite wrote.
    const base = Date.now() + 365 * DAY;
    const at = (minute: number) => new Date(base + minute * 60_000);
    await suite.db.query('UPDATE agents SET created_at = $2 WHERE id = $1', [sam.id, at(0)]);
    const estimate = await insertEstimate(suite.db, dana.id, at(1));
    const lead = await insertLead(suite.db, dana.id, at(2), 'Robin Seller', '/r/dana');
    await insertSentEmail(suite.db, 'New lead: Robin Seller', at(3), { leadId: lead });
    const samLead = await insertLead(suite.db, sam.id, at(4), 'Avery Buyer');
    await suite.db.query(
      `INSERT INTO crm_syncs (lead_id, agent_id, payload, status, finished_at) VALUES ($1, $2, '{}', 'synced', $3)`,
      [samLead, sam.id, at(5)],
    );
    await insertSentEmail(suite.db, 'Your home sale estimate', at(6), { estimateUuid: estimate });

    const client = await clientAs(suite, admin.id);
    const before = suite.db.roundTrips;
    const response = await client.get('/api/admin/activity');
    expect(suite.db.roundTrips - before).toBe(1);
    const { activities } = await expectJson(response, 200, adminActivityResponseSchema);
    expect(activities.slice(0, 7).map(({ type, message }) => ({ type, message }))).toEqual([
      { type: 'other', message: 'E-mail sent: Your home sale estimate (Dana North)' },
      { type: 'other', message: 'Sent to Follow Up Boss: Avery Buyer (Sam South)' },
      { type: 'lead', message: 'New lead for Sam South: Avery Buyer (Calculator)' },
      { type: 'other', message: 'E-mail sent: New lead: Robin Seller (Dana North)' },
      { type: 'lead', message: 'New lead for Dana North: Robin Seller (Calculator page /r/dana)' },
      { type: 'estimate', message: 'Estimate of $279,341.00 net on Dana North’s calculator' },
      { type: 'other', message: 'New agent: Sam South (active)' },
    ]);
    // The spec's three types leave most rows "other": the list says what each one is.
    expect(activities.slice(0, 7).map(({ label }) => label)).toEqual([
      'E-mail',
      'CRM',
      'Lead',
      'E-mail',
      'Lead',
      'Estimate',
      'Agent',
    ]);
    expect(activities[0]?.timestamp).toBe(at(6).toISOString());
  });

  it('shows at most 15 activity items, newest first, across agents', async () => {
    const admin = await newAdmin(suite);
    const agents = [await createAgent(suite.db), await createAgent(suite.db)];
    for (let index = 0; index < 20; index += 1) {
      const agent = agents[index % 2];
      if (!agent) throw new Error('no agent');
      await insertEstimate(suite.db, agent.id, new Date(Date.now() - index * 60_000));
    }
    const { activities } = await expectJson(
      await (await clientAs(suite, admin.id)).get('/api/admin/activity'),
      200,
      adminActivityResponseSchema,
    );
    expect(activities).toHaveLength(15);
    const times = activities.map((activity) => Date.parse(activity.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each(['/api/admin/overview', '/api/admin/activity'])(
    '%s answers 401 signed out, 403 to an agent, and 401 to an admin since made inactive',
    async (path) => {
      await expectError(await suite.client().get(path), 401, 'Please log in');
      const agent = await createAgent(suite.db);
      await expectError(
        await (await clientAs(suite, agent.id)).get(path),
        403,
        'Only admins can see the site’s figures',
      );
      const admin = await newAdmin(suite);
      const client = await clientAs(suite, admin.id);
      expect((await client.get(path)).status).toBe(200);
      await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [admin.id]);
      await expectError(await client.get(path), 401, 'Please log in');
    },
  );
});
