/**
 * The admin's leads over real HTTP, on both backends: GET /api/admin/leads (every agent's leads,
 * filters, paging, totals, one round trip), its CSV export (contents, formula cells, a page of
 * 1,000 leads a request here: decision 0029) and a lead's timeline, each refused signed out (401) and to an agent (403).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { addLeads, csvText, exportCsv, listedLead, listedPage, parseCsv, series } from '../support/lead-list-suite.ts';

const adminList = listedPage(listedLead.extend({ agent_id: z.number(), agent_name: z.string() }));

const timeline = z.strictObject({
  success: z.literal(true),
  lead: z.strictObject({ id: z.number(), name: z.string(), email: z.string(), agent_name: z.string() }),
  events: z.array(
    z.strictObject({
      kind: z.string(),
      at: z.string().nullable(),
      detail: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

const HEADER = [
  'Name',
  'Email',
  'Phone',
  'Address',
  'Source',
  'Date',
  'FUB Synced',
  'Estimate UUID',
  'Sale price',
  'Mortgage payoff',
  'Estimated net',
  'Page',
  'Campaign',
  'Updates',
  'Agent',
];

/** Each test's leads are in a year of its own, so a test's date filter sees only its own. */
let year = 2040;
const nextYear = () => (year += 1);

describe.each(BACKENDS)('the admin’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'adminleads', { leadExportPageRows: 1000 });

  async function signedIn(
    admin: boolean,
    name: { first_name?: string; last_name?: string } = {},
  ): Promise<{ id: number; client: Client }> {
    const agent = await createAgent(suite.db, { ...name, is_admin: admin });
    return { id: agent.id, client: await clientAs(suite, agent.id) };
  }

  const list = async (client: Client, query: string) =>
    expectJson(await client.get(`/api/admin/leads?${query}`), 200, adminList);

  async function csv(client: Client, query: string): Promise<string[][]> {
    const response = await client.get(`/api/admin/leads/export.csv?${query}`);
    const text = await csvText(response);
    expect(response.status, text).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    return parseCsv(text.slice(1));
  }

  describe('who may call', () => {
    it('answers 401 signed out, 403 to an agent (and to an admin no longer one), 200 to an admin', async () => {
      const agent = await signedIn(false);
      const admin = await signedIn(true);
      const [lead] = await addLeads(suite.db, agent.id, [{ first_name: 'Private' }]);
      const paths = ['/api/admin/leads', '/api/admin/leads/export.csv', `/api/admin/leads/${lead}/timeline`];
      for (const path of paths) {
        await expectError(await suite.client().get(path), 401, 'Please log in');
        await expectError(await agent.client.get(path), 403, 'Admins only');
        expect((await admin.client.get(path)).status, path).toBe(200);
      }
      await suite.db.query('UPDATE agents SET is_admin = false WHERE id = $1', [admin.id]);
      for (const path of paths) await expectError(await admin.client.get(path), 403, 'Admins only');
      // An agent's filters do not open the admin's list either.
      await expectError(await agent.client.get(`/api/admin/leads?agent=${agent.id}`), 403, 'Admins only');
    });
  });

  describe('GET /api/admin/leads', () => {
    it('lists every agent’s leads newest first with whose they are, paged, with the total, in one round trip', async () => {
      const admin = await signedIn(true);
      const dana = await signedIn(false, { first_name: 'Dana', last_name: 'Lopez' });
      const eli = await signedIn(false, { first_name: 'Eli', last_name: 'Brook' });
      const y = nextYear();
      const danas = await addLeads(suite.db, dana.id, series(20, Date.UTC(y, 2, 1)));
      const elis = await addLeads(suite.db, eli.id, series(10, Date.UTC(y, 2, 1, 12)));
      const range = `from=${y}-01-01&to=${y}-12-31`;
      const before = suite.db.roundTrips;
      const first = await list(admin.client, range);
      expect(suite.db.roundTrips - before).toBe(1);
      expect(first.total).toBe(30);
      expect(first.leads).toHaveLength(25);
      const newestFirst = [...[...danas, ...elis].reverse()];
      expect(first.leads.map((lead) => lead.id)).toEqual(newestFirst.slice(0, 25));
      expect(first.leads[0]).toMatchObject({ agent_id: eli.id, agent_name: 'Eli Brook', crm_status: null });
      expect(first.leads[10]).toMatchObject({ agent_id: dana.id, agent_name: 'Dana Lopez' });
      const second = await list(admin.client, `${range}&page=2`);
      expect(second.leads.map((lead) => lead.id)).toEqual(newestFirst.slice(25));
      expect(second.total).toBe(30);

      const onlyDana = await list(admin.client, `${range}&agent=${dana.id}&per_page=5`);
      expect(onlyDana.total).toBe(20);
      expect(onlyDana.leads.map((lead) => lead.id)).toEqual([...danas].reverse().slice(0, 5));
    });

    it('filters by source, New York days, CRM status (or none) and search, each with its total', async () => {
      const admin = await signedIn(true);
      const agent = await signedIn(false);
      const other = await signedIn(false);
      const y = nextYear();
      const [early, late, showcase, phoned] = await addLeads(suite.db, agent.id, [
        // 11 pm in New York on Jan 31 is Feb 1 in UTC: a day of January here.
        { first_name: 'Early', created_at: `${y}-02-01T04:30:00Z` },
        { first_name: 'Late', created_at: `${y}-02-02T05:30:00Z` },
        { first_name: 'Shown', source: 'showcase', created_at: `${y}-03-01T15:00:00Z` },
        {
          first_name: 'Phoned',
          phone: '(631) 555-0199',
          email: 'zed.q@example.com',
          created_at: `${y}-03-02T15:00:00Z`,
        },
      ]);
      const [elsewhere] = await addLeads(suite.db, other.id, [
        { first_name: 'Other', created_at: `${y}-03-03T15:00:00Z` },
      ]);
      await suite.db.query(
        `INSERT INTO crm_syncs (lead_id, agent_id, payload, status, last_error)
         VALUES ($1, $2, '{}'::jsonb, 'synced', NULL), ($3, $2, '{}'::jsonb, 'stopped', 'Key refused')`,
        [late, agent.id, showcase],
      );
      const ids = async (query: string, days = `from=${y}-01-01&to=${y}-12-31`) => {
        const body = await list(admin.client, `${days}&${query}`);
        const found = body.leads.map((lead) => lead.id);
        expect(body.total, query).toBe(found.length);
        return found;
      };
      expect(await ids('')).toEqual([elsewhere, phoned, showcase, late, early]);
      expect(await ids('', `from=${y}-01-31&to=${y}-01-31`)).toEqual([early]);
      expect(await ids('', `from=${y}-02-01&to=${y}-02-02`)).toEqual([late]);
      expect(await ids('source=showcase')).toEqual([showcase]);
      expect(await ids('crm_status=synced')).toEqual([late]);
      expect(await ids('crm_status=stopped')).toEqual([showcase]);
      expect(await ids('crm_status=none')).toEqual([elsewhere, phoned, early]);
      expect(await ids(`crm_status=none&agent=${agent.id}`)).toEqual([phoned, early]);
      expect(await ids('search=EARLY')).toEqual([early]);
      expect(await ids('search=zed.q@')).toEqual([phoned]);
      expect(await ids('search=631-555-0199')).toEqual([phoned]);
      expect(await ids(`search=other&agent=${agent.id}`)).toEqual([]);
      const stopped = await list(admin.client, `from=${y}-01-01&to=${y}-12-31&crm_status=stopped`);
      expect(stopped.leads[0]).toMatchObject({ crm_status: 'stopped', crm_error: 'Key refused' });
      for (const query of ['crm_status=none&search=o&source=calculator', 'agent=1', 'page=40']) {
        const before = suite.db.roundTrips;
        await list(admin.client, `from=${y}-01-01&${query}`);
        expect(suite.db.roundTrips - before, query).toBe(1);
      }
    });

    it('refuses bad paging, agents, CRM statuses, dates and an oversized search with the field and why', async () => {
      const admin = await signedIn(true);
      const refused = async (query: string, field: string, message: string) => {
        for (const path of ['/api/admin/leads', '/api/admin/leads/export.csv']) {
          if (path.endsWith('.csv') && field.includes('page')) continue;
          const body = await expectError(await admin.client.get(`${path}?${query}`), 400, message);
          expect(body.fields).toEqual({ [field]: message });
        }
      };
      await refused('agent=abc', 'agent', 'Agent must be an agent id');
      await refused('agent=0', 'agent', 'Agent must be an agent id');
      await refused('agent=1.5', 'agent', 'Agent must be an agent id');
      await refused('agent=99999999999', 'agent', 'Agent must be an agent id');
      await refused(
        'crm_status=lost',
        'crm_status',
        'CRM status must be one of queued, sending, synced, ignored, stopped, rejected, none',
      );
      await refused(
        'source=zillow',
        'source',
        'Source must be one of home, nassau_county, suffolk_county, town, agent_page, about_page, estimate, offers, other',
      );
      await refused('from=2026-02-30', 'from', 'From date is not a real date');
      await refused('from=2026-03-10&to=2026-03-09', 'to', 'From date must be on or before To date');
      await refused(`search=${'a'.repeat(101)}`, 'search', 'Search must be at most 100 characters');
      await refused('page=0', 'page', 'Page must be at least 1');
      await refused('per_page=101', 'per_page', 'Per page must be at most 100');
      expect((await list(admin.client, `search=${'a'.repeat(100)}`)).total).toBe(0);
    });
  });

  describe('GET /api/admin/leads/export.csv', () => {
    it('exports the filtered leads of every agent with the agent’s name, formula cells neutralised', async () => {
      const admin = await signedIn(true);
      const dana = await signedIn(false, { first_name: 'Dana', last_name: 'Lopez' });
      const eli = await signedIn(false, { first_name: '=Eli', last_name: 'Brook' });
      const y = nextYear();
      await addLeads(suite.db, dana.id, [
        {
          first_name: 'Kim',
          last_name: 'Ng',
          email: 'kim@example.com',
          phone: '5165550123',
          address: '=1+2',
          created_at: `${y}-04-03T15:00:00Z`,
        },
      ]);
      await addLeads(suite.db, eli.id, [
        { first_name: '@Sam', last_name: 'Lee', source: 'showcase', created_at: `${y}-04-04T15:00:00Z` },
      ]);
      const rows = await csv(admin.client, `from=${y}-01-01&to=${y}-12-31`);
      expect(rows[0]).toEqual(HEADER);
      expect(rows.slice(1).map((row) => [row[0], row[3], row[4], row[5], row[14]])).toEqual([
        ["'@Sam Lee", '', 'Home page', `${y}-04-04T11:00:00-04:00`, "'=Eli Brook"],
        ['Kim Ng', "'=1+2", 'Calculator', `${y}-04-03T11:00:00-04:00`, 'Dana Lopez'],
      ]);
      expect(rows[2]?.slice(1, 3)).toEqual(['kim@example.com', '(516) 555-0123']);
      const danaOnly = await csv(admin.client, `from=${y}-01-01&agent=${dana.id}`);
      expect(danaOnly.slice(1).map((row) => row[0])).toEqual(['Kim Ng']);
      expect(await csv(admin.client, `from=${y}-01-01&source=suffolk_county_page`)).toEqual([HEADER]);
    });

    it('answers the leads a page a request, each in one round trip, in order, none skipped or twice', async () => {
      const admin = await signedIn(true);
      const agent = await signedIn(false);
      const y = nextYear();
      // 2,001 leads, several of each moment (the pages' keyset must not skip or repeat ties).
      await suite.db.query(
        `INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing, created_at)
         SELECT $1, 'Bulk', 'Lead' || n, 'bulk' || n || '@example.com', 'calculator', true,
                make_timestamptz($2, 6, 1, 12, 0, 0, 'UTC') + (n / 3) * interval '1.000001 second'
           FROM generate_series(1, 2001) AS n`,
        [agent.id, y],
      );
      const before = suite.db.roundTrips;
      const { text, pages } = await exportCsv((url) => admin.client.get(url), '/api/admin/leads/export.csv', {
        from: `${y}-01-01`,
        to: `${y}-12-31`,
      });
      expect(pages.map((page) => [page.status, page.rows])).toEqual([
        [200, 1000],
        [200, 1000],
        [200, 1],
      ]);
      expect(suite.db.roundTrips - before, 'three pages, one round trip each').toBe(3);
      expect(text.startsWith('\uFEFF')).toBe(true);
      const rows = parseCsv(text.slice(1));
      expect(rows[0]).toEqual(HEADER);
      const names = rows.slice(1).map((row) => row[0]);
      expect(names).toHaveLength(2001);
      expect(new Set(names).size).toBe(2001);
      const expected = Array.from({ length: 2001 }, (_, index) => `Bulk Lead${2001 - index}`);
      expect(names).toEqual(expected);
    });
  });

  describe('GET /api/admin/leads/:id/timeline', () => {
    it('answers the lead’s creation, e-mails queued, sent and failed and its CRM attempts, oldest first', async () => {
      const admin = await signedIn(true);
      const agent = await signedIn(false, { first_name: 'Dana', last_name: 'Lopez' });
      const [lead] = await addLeads(suite.db, agent.id, [
        { first_name: 'Kim', last_name: 'Ng', email: 'kim@example.com', created_at: '2026-05-01T12:00:00Z' },
      ]);
      await suite.db.query(
        `INSERT INTO email_deliveries (kind, to_email, subject, html, text, status, lead_id, created_at, sent_at, last_error, attempts)
         VALUES ('lead_notice', 'agent@example.com', 'New lead: Kim Ng', '', '', 'sent', $1, '2026-05-01T12:00:01Z', '2026-05-01T12:00:05Z', NULL, 1),
                ('estimate', 'kim@example.com', 'Your estimate', '', '', 'failed', $1, '2026-05-01T12:00:02Z', NULL, 'Mailbox full', 5)`,
        [lead],
      );
      const [sync] = await suite.db.query<{ id: number }>(
        `INSERT INTO crm_syncs (lead_id, agent_id, payload, status, last_error) VALUES ($1, $2, '{}'::jsonb, 'synced', NULL) RETURNING id`,
        [lead, agent.id],
      );
      await suite.db.query(
        `INSERT INTO crm_sync_attempts (sync_id, at, outcome, http_status, error, duration_ms)
         VALUES ($1, '2026-05-01T12:00:20Z', 'created', 201, NULL, 80), ($1, '2026-05-01T12:00:10Z', 'server-error', 503, 'Service unavailable', 40)`,
        [sync?.id],
      );
      const before = suite.db.roundTrips;
      const body = await expectJson(await admin.client.get(`/api/admin/leads/${lead}/timeline`), 200, timeline);
      expect(suite.db.roundTrips - before).toBe(1);
      expect(body.lead).toEqual({ id: lead, name: 'Kim Ng', email: 'kim@example.com', agent_name: 'Dana Lopez' });
      expect(
        body.events.map((event) => [
          event.kind,
          event.at && new Date(event.at).toISOString(),
          event.detail,
          event.error,
        ]),
      ).toEqual([
        ['created', '2026-05-01T12:00:00.000Z', null, null],
        ['email_queued', '2026-05-01T12:00:01.000Z', 'New lead: Kim Ng (to agent@example.com)', null],
        ['email_queued', '2026-05-01T12:00:02.000Z', 'Your estimate (to kim@example.com)', null],
        ['email_failed', null, 'Your estimate (to kim@example.com)', 'Mailbox full'],
        ['email_sent', '2026-05-01T12:00:05.000Z', 'New lead: Kim Ng (to agent@example.com)', null],
        ['crm_attempt', '2026-05-01T12:00:10.000Z', 'server-error (HTTP 503)', 'Service unavailable'],
        ['crm_attempt', '2026-05-01T12:00:20.000Z', 'created (HTTP 201)', null],
      ]);
    });

    it('answers 404 for a lead that does not exist and 400 for an id that is not one', async () => {
      const admin = await signedIn(true);
      await expectError(await admin.client.get('/api/admin/leads/2147483000/timeline'), 404, 'Lead not found');
      const bad = await expectError(await admin.client.get('/api/admin/leads/abc/timeline'), 400);
      expect(bad.fields).toEqual({ id: 'Lead id must be a whole number' });
      await expectError(await admin.client.get('/api/admin/leads/0/timeline'), 400, 'Lead id must be at least 1');
      await expectError(await admin.client.get('/api/admin/leads/99999999999/timeline'), 400, 'Lead id is too large');
    });
  });
});
