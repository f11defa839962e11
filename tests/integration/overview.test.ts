/**
 * GET /api/agents/me/overview over real HTTP on both backends: every figure equals the rows behind
 * it (made at known times: this week, earlier weeks, last month, 13 weeks ago), other agents' rows
 * are left out, the 12 weeks are zero-filled, and the whole answer costs one round trip.
 */
import { describe, expect, it } from 'vitest';
import { overviewResponseSchema, type Week } from '../../src/features/dashboard/public/overview.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { insertEstimate, insertLead, insertSentEmail } from '../support/activity-rows.ts';
import { createAgent } from '../support/fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;

/** The New York calendar date of an instant, YYYY-MM-DD. */
const nyDate = (at: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', dateStyle: 'short' }).format(at);

/** The Monday on or before a calendar date. */
function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY).toISOString().slice(0, 10);
}

/** The 12 Mondays of the chart, oldest first, as the agent's calendar in New York has them. */
function chartWeeks(now: Date): string[] {
  const thisMonday = new Date(`${mondayOf(nyDate(now))}T00:00:00Z`).getTime();
  return Array.from({ length: 12 }, (_, index) =>
    new Date(thisMonday - (11 - index) * 7 * DAY).toISOString().slice(0, 10),
  );
}

describe.each(BACKENDS)('the dashboard overview on %s', (backend) => {
  const suite = useAuthSuite(backend, 'overview');
  const overviewOf = async (agentId: number) =>
    (
      await expectJson(
        await (await clientAs(suite, agentId)).get('/api/agents/me/overview'),
        200,
        overviewResponseSchema,
      )
    ).overview;

  it('counts the agent’s own estimates and leads, by New York week and month, in one round trip', async () => {
    const agent = await createAgent(suite.db);
    const other = await createAgent(suite.db);
    const now = new Date();
    const estimateTimes = [now, now, new Date(now.getTime() - 7 * DAY), new Date(now.getTime() - 40 * DAY)];
    const leadTimes = [now, new Date(now.getTime() - 14 * DAY), new Date(now.getTime() - 35 * DAY)];
    // 13 weeks ago: counted in the totals, outside the chart.
    const old = new Date(now.getTime() - 13 * 7 * DAY);
    for (const at of [...estimateTimes, old]) await insertEstimate(suite.db, agent.id, at);
    for (const [index, at] of [...leadTimes, old].entries()) await insertLead(suite.db, agent.id, at, `Lead ${index}`);
    // Another agent's rows, this week: never counted.
    await insertEstimate(suite.db, other.id, now);
    await insertLead(suite.db, other.id, now, 'Other Person');

    const client = await clientAs(suite, agent.id);
    const before = suite.db.roundTrips;
    const response = await client.get('/api/agents/me/overview');
    expect(suite.db.roundTrips - before).toBe(1);
    const { overview } = await expectJson(response, 200, overviewResponseSchema);

    const thisMonth = nyDate(now).slice(0, 7);
    expect(overview.estimates_total).toBe(5);
    expect(overview.leads_total).toBe(4);
    expect(overview.leads_this_month).toBe(leadTimes.filter((at) => nyDate(at).startsWith(thisMonth)).length);
    expect(overview.conversion_percent).toBe(80);

    const weeks = chartWeeks(now);
    const perWeek = (times: Date[], week: string) => times.filter((at) => mondayOf(nyDate(at)) === week).length;
    const expected: Week[] = weeks.map((week) => ({
      week_start: week,
      estimates: perWeek(estimateTimes, week),
      leads: perWeek(leadTimes, week),
    }));
    expect(overview.weeks).toEqual(expected);
    expect(overview.weeks.at(-1)).toEqual({ week_start: mondayOf(nyDate(now)), estimates: 2, leads: 1 });
  });

  it('answers zero-filled weeks and a null conversion for an agent with no estimates', async () => {
    const agent = await createAgent(suite.db);
    await insertLead(suite.db, agent.id, new Date(), 'Only Lead');
    const overview = await overviewOf(agent.id);
    expect(overview.estimates_total).toBe(0);
    expect(overview.leads_total).toBe(1);
    expect(overview.conversion_percent).toBeNull();
    expect(overview.weeks.map((week) => week.week_start)).toEqual(chartWeeks(new Date()));
    expect(overview.weeks.slice(0, 11).every((week) => week.estimates === 0 && week.leads === 0)).toBe(true);

    const empty = await overviewOf((await createAgent(suite.db)).id);
    expect(empty).toMatchObject({ leads_total: 0, estimates_total: 0, leads_this_month: 0, conversion_percent: null });
    expect(empty.activities).toEqual([]);
    expect(empty.weeks).toHaveLength(12);
  });

  it('rounds the conversion to one decimal', async () => {
    const agent = await createAgent(suite.db);
    for (let index = 0; index < 3; index += 1) await insertEstimate(suite.db, agent.id, new Date());
    await insertLead(suite.db, agent.id, new Date(), 'One Lead');
    expect((await overviewOf(agent.id)).conversion_percent).toBe(33.3);
  });

  it('lists the agent’s own estimates, leads and sent e-mails, newest first', async () => {
    const agent = await createAgent(suite.db);
    const other = await createAgent(suite.db);
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const estimateUuid = await insertEstimate(suite.db, agent.id, at(50));
    const leadId = await insertLead(suite.db, agent.id, at(40), 'Dana Reyes', '/r/somewhere');
    await insertSentEmail(suite.db, 'New lead: Dana Reyes', at(39), { leadId });
    await insertLead(suite.db, agent.id, at(30), 'Sam Cole');
    await insertSentEmail(suite.db, 'Your home sale estimate', at(20), { estimateUuid });
    // Not activity: an account e-mail to the agent, another agent's lead and its e-mail, an
    // e-mail to someone else.
    await insertSentEmail(suite.db, 'Verify your email', at(15), { to: agent.email });
    const otherLead = await insertLead(suite.db, other.id, at(10), 'Other Person');
    await insertSentEmail(suite.db, 'New lead: Other Person', at(9), { leadId: otherLead });
    await insertSentEmail(suite.db, 'For someone else', at(8), {});

    const overview = await overviewOf(agent.id);
    expect(overview.activities.map(({ type, message }) => ({ type, message }))).toEqual([
      { type: 'other', message: 'E-mail sent: Your home sale estimate' },
      { type: 'lead', message: 'New lead: Sam Cole (Calculator)' },
      { type: 'other', message: 'E-mail sent: New lead: Dana Reyes' },
      { type: 'lead', message: 'New lead: Dana Reyes (Calculator page /r/somewhere)' },
      { type: 'estimate', message: 'Estimate of $279,341.00 net on your calculator' },
    ]);
    expect(overview.activities[0]?.timestamp).toBe(at(20).toISOString());
  });

  it("tells a detailed estimate's own net", async () => {
    const agent = await createAgent(suite.db);
    const response = await suite.api.postJson('/api/estimates', {
      agent_slug: agent.slug,
      sale_price: '780,200',
      mortgage_payoff: 450000,
      details: { seller_concessions: 10000, title_closer_pickup: false },
    });
    expect(response.status).toBe(201);
    const overview = await overviewOf(agent.id);
    // The quick net $279,341 less the $10,000 credited to the buyer.
    expect(overview.activities.map(({ message }) => message)).toEqual([
      'Estimate of $269,341.00 net on your calculator',
    ]);
  });

  it('lists the end of a lead’s sync to Follow Up Boss, after the lead', async () => {
    const agent = await createAgent(suite.db);
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const synced = await insertLead(suite.db, agent.id, at(30), 'Dana Reyes');
    const archived = await insertLead(suite.db, agent.id, at(20), 'Sam Cole');
    const waiting = await insertLead(suite.db, agent.id, at(10), 'Lee Park');
    await suite.db.query(
      `INSERT INTO crm_syncs (lead_id, agent_id, payload, status, finished_at)
       VALUES ($1, $4, '{}', 'synced', $5), ($2, $4, '{}', 'ignored', $6), ($3, $4, '{}', 'queued', NULL)`,
      [synced, archived, waiting, agent.id, at(29), at(19)],
    );
    const overview = await overviewOf(agent.id);
    expect(overview.activities.map(({ message }) => message)).toEqual([
      'New lead: Lee Park (Calculator)',
      'Follow Up Boss ignored (lead flow archived): Sam Cole',
      'New lead: Sam Cole (Calculator)',
      'Sent to Follow Up Boss: Dana Reyes',
      'New lead: Dana Reyes (Calculator)',
    ]);
  });

  it('shows at most 15 activity items', async () => {
    const agent = await createAgent(suite.db);
    for (let index = 0; index < 20; index += 1) {
      await insertEstimate(suite.db, agent.id, new Date(Date.now() - index * 60_000), (100_000 + index) * 100);
    }
    const { activities } = await overviewOf(agent.id);
    expect(activities).toHaveLength(15);
    const times = activities.map((activity) => Date.parse(activity.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('gives an admin their own figures, not everyone’s', async () => {
    const admin = await createAgent(suite.db, { is_admin: true });
    await insertEstimate(suite.db, (await createAgent(suite.db)).id, new Date());
    await insertEstimate(suite.db, admin.id, new Date());
    const overview = await overviewOf(admin.id);
    expect(overview.estimates_total).toBe(1);
    expect(overview.leads_total).toBe(0);
  });

  it('answers 401 signed out, and for an agent made inactive since signing in', async () => {
    await expectError(await suite.client().get('/api/agents/me/overview'), 401, 'Please log in');
    const agent = await createAgent(suite.db);
    const client = await clientAs(suite, agent.id);
    await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [agent.id]);
    await expectError(await client.get('/api/agents/me/overview'), 401, 'Please log in');
  });
});
