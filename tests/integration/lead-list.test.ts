/**
 * The signed-in agent's leads over real HTTP, on both backends: GET /api/leads (filters, paging,
 * one round trip), DELETE /api/leads (Clear All) and GET /api/leads/export.csv, each with bad input,
 * signed out, another agent's data and an admin.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { deliveriesOfLead, deliveryById } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { originOf, townSlugOf } from '../../src/features/lead-origin/lead-origin.ts';
import {
  addLeads,
  csvText,
  listedLead,
  listedPage,
  parseCsv,
  series,
  type SeedLead,
} from '../support/lead-list-suite.ts';

const leadList = listedPage(listedLead);
const cleared = z.strictObject({ success: z.literal(true), deleted: z.number() });

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
];

describe.each(BACKENDS)('the agent’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'leadlist');

  async function signedIn(admin = false): Promise<{ id: number; slug: string; client: Client }> {
    const agent = await createAgent(suite.db, { is_admin: admin });
    return { id: agent.id, slug: agent.slug, client: await clientAs(suite, agent.id) };
  }

  const list = async (client: Client, query = '') => expectJson(await client.get(`/api/leads${query}`), 200, leadList);
  const clear = (client: Client) =>
    client.request('/api/leads', { method: 'DELETE', headers: { origin: suite.api.origin } });

  async function csv(client: Client, query = ''): Promise<{ response: Response; records: string[][] }> {
    const response = await client.get(`/api/leads/export.csv${query}`);
    const text = await csvText(response);
    expect(response.status, text).toBe(200);
    expect(text.startsWith('\uFEFF'), 'a UTF-8 byte order mark for spreadsheets').toBe(true);
    return { response, records: parseCsv(text.slice(1)) };
  }

  describe('GET /api/leads', () => {
    it('answers the caller’s leads newest first, 25 a page, with the total and the spec’s row', async () => {
      const agent = await signedIn();
      const ids = await addLeads(suite.db, agent.id, series(30));
      const [first] = await addLeads(suite.db, agent.id, [
        {
          first_name: 'Dana',
          last_name: 'Lopez',
          email: 'dana@example.com',
          phone: '516-555-0123',
          address: '12 Elm Street, Garden City',
          source: 'nassau_county_page',
          created_at: '2026-07-01T12:00:00Z',
        },
      ]);
      const body = await list(agent.client);
      expect(body.total).toBe(31);
      expect(body.page).toBe(1);
      expect(body.per_page).toBe(25);
      expect(body.leads).toHaveLength(25);
      expect(body.leads[0]).toEqual({
        id: first,
        first_name: 'Dana',
        last_name: 'Lopez',
        email: 'dana@example.com',
        phone: '516-555-0123',
        address: '12 Elm Street, Garden City',
        message: null,
        source: 'nassau_county_page',
        created_at: '2026-07-01T12:00:00.000Z',
        synced_to_fub: 0,
        estimate_uuid: null,
        page_path: null,
        origin: 'nassau_county',
        source_label: 'Nassau County page',
        utm: null,
        crm_status: null,
        crm_error: null,
      });
      expect(body.leads.slice(1).map((lead) => lead.id)).toEqual([...ids].reverse().slice(0, 24));

      const second = await list(agent.client, '?page=2');
      expect(second.leads.map((lead) => lead.id)).toEqual([...ids].reverse().slice(24));
      expect(second.total).toBe(31);
      const beyond = await list(agent.client, '?page=9');
      expect(beyond).toEqual({ success: true, leads: [], towns: [], total: 31, page: 9, per_page: 25 });
      const ten = await list(agent.client, '?per_page=10&page=3');
      expect(ten.leads.map((lead) => lead.id)).toEqual([...ids].reverse().slice(19, 29));
      expect((await list(agent.client, '?per_page=100')).leads).toHaveLength(31);
    });

    it("shows the contact form's message to the agent, and their new-lead e-mail carries it escaped (minor 19)", async () => {
      const agent = await signedIn();
      const message = 'Please call after 5pm.\n<b>Not</b> Sundays & holidays.';
      const posted = await expectJson(
        await suite.client().post('/api/leads', {
          agent_slug: agent.slug,
          firstName: 'Dana',
          lastName: 'Lopez',
          email: 'dana.message@example.com',
          phone: '516-555-0123',
          message,
          consent_marketing: true,
        }),
        201,
        z.object({ lead: z.object({ id: z.number() }) }).loose(),
      );
      const body = await list(agent.client);
      expect(body.leads.map((lead) => [lead.id, lead.message])).toEqual([[posted.lead.id, message]]);
      await suite.settle();
      const [notice] = await deliveriesOfLead(suite.db, posted.lead.id);
      expect(notice?.kind).toBe('new_lead');
      expect(notice?.text).toContain(`Message:\n${message}`);
      expect(notice?.html).toContain('Please call after 5pm.\n&lt;b&gt;Not&lt;/b&gt; Sundays &amp; holidays.');
      expect(notice?.html).not.toContain('<b>Not</b>');
    });

    it('orders leads of the same moment by id, so pages neither repeat nor skip one', async () => {
      const agent = await signedIn();
      const ids = await addLeads(
        suite.db,
        agent.id,
        series(6, Date.UTC(2026, 5, 1), { created_at: '2026-06-01T00:00:00Z' }),
      );
      const pages = [await list(agent.client, '?per_page=4'), await list(agent.client, '?per_page=4&page=2')];
      expect(pages.flatMap((page) => page.leads.map((lead) => lead.id))).toEqual([...ids].reverse());
    });

    it('says where each lead’s sync to Follow Up Boss stands and why it last failed, in one round trip', async () => {
      const agent = await signedIn();
      const [never, synced, failing, archived] = await addLeads(suite.db, agent.id, series(4));
      const jobs: [number | undefined, string, string | null, boolean][] = [
        [synced, 'synced', null, true],
        [failing, 'stopped', 'Follow Up Boss refused the API key (401)', false],
        [archived, 'ignored', null, false],
      ];
      for (const [leadId, status, error, done] of jobs) {
        await suite.db.query(
          `INSERT INTO crm_syncs (lead_id, agent_id, payload, status, last_error) VALUES ($1, $2, '{}'::jsonb, $3, $4)`,
          [leadId, agent.id, status, error],
        );
        if (done) await suite.db.query('UPDATE leads SET synced_to_fub = true WHERE id = $1', [leadId]);
      }
      const before = suite.db.roundTrips;
      const body = await list(agent.client);
      expect(suite.db.roundTrips - before).toBe(1);
      const byId = new Map(body.leads.map((lead) => [lead.id, lead]));
      expect(byId.get(never ?? 0)).toMatchObject({ synced_to_fub: 0, crm_status: null, crm_error: null });
      expect(byId.get(synced ?? 0)).toMatchObject({ synced_to_fub: 1, crm_status: 'synced', crm_error: null });
      expect(byId.get(failing ?? 0)).toMatchObject({
        synced_to_fub: 0,
        crm_status: 'stopped',
        crm_error: 'Follow Up Boss refused the API key (401)',
      });
      expect(byId.get(archived ?? 0)).toMatchObject({ crm_status: 'ignored', crm_error: null });
      expect(body.total).toBe(4);
    });

    it('an agent with no lead gets an empty list', async () => {
      const agent = await signedIn();
      expect(await list(agent.client)).toEqual({
        success: true,
        leads: [],
        towns: [],
        total: 0,
        page: 1,
        per_page: 25,
      });
    });

    it('searches name, e-mail and phone (by its digits), case-insensitively, wildcards taken literally', async () => {
      const agent = await signedIn();
      const [dana, chris, robin] = await addLeads(suite.db, agent.id, [
        { first_name: 'Dana', last_name: 'Lopez', email: 'dl@example.com', phone: '(516) 555-0123' },
        { first_name: 'Chris', last_name: 'Nguyen', email: 'CHRIS.N@Example.org', phone: '631.555.0199' },
        { first_name: 'Robin', last_name: 'Baker_100%', email: 'rb@example.com', phone: null },
      ]);
      const found = async (search: string) =>
        (await list(agent.client, `?search=${encodeURIComponent(search)}`)).leads.map((lead) => lead.id);
      expect(await found('dana lo')).toEqual([dana]);
      expect(await found('LOPEZ')).toEqual([dana]);
      expect(await found('chris.n@example')).toEqual([chris]);
      expect(await found('example.org')).toEqual([chris]);
      expect(await found('516-555-01')).toEqual([dana]);
      expect(await found('5165550123')).toEqual([dana]);
      expect(await found('(631) 555')).toEqual([chris]);
      expect(await found('555')).toEqual([chris, dana]);
      expect(await found('100%')).toEqual([robin]);
      expect(await found('r_')).toEqual([robin]);
      expect(await found('%')).toEqual([robin]);
      expect(await found('_')).toEqual([robin]);
      expect(await found('nobody')).toEqual([]);
      // A blank box is no filter.
      expect((await list(agent.client, '?search=')).total).toBe(3);
      expect((await list(agent.client, '?search=%20%20')).total).toBe(3);
    });

    it('filters by source and by New York days, inclusive', async () => {
      const agent = await signedIn();
      const [late, early, nextDay, county] = await addLeads(suite.db, agent.id, [
        // 11:30 pm in New York on 9 February (EST) is already the 10th in UTC.
        { created_at: '2026-02-10T04:30:00Z' },
        // Midnight starting 9 February in New York.
        { created_at: '2026-02-09T05:00:00Z' },
        // Midnight starting 10 February in New York.
        { created_at: '2026-02-10T05:00:00Z' },
        { created_at: '2026-07-04T16:00:00Z', source: 'suffolk_county_page' },
      ]);
      await addLeads(suite.db, agent.id, [{ created_at: '2026-02-09T04:59:59Z' }]);
      const ids = async (query: string) => (await list(agent.client, query)).leads.map((lead) => lead.id);
      expect(await ids('?from=2026-02-09&to=2026-02-09')).toEqual([late, early]);
      expect(await ids('?from=2026-02-10')).toEqual([county, nextDay]);
      expect(await ids('?to=2026-02-09&source=calculator')).toHaveLength(3);
      expect(await ids('?source=suffolk_county_page')).toEqual([county]);
      // A summer day (EDT, UTC-4).
      expect(await ids('?from=2026-07-04&to=2026-07-04')).toEqual([county]);
      expect(await ids('?source=showcase&from=2026-02-09')).toEqual([]);
      expect(await ids('?search=&source=&from=&to=')).toHaveLength(5);
    });

    it('offers each town of the agent’s own town-page leads once, whatever the other filters, and none of another agent’s', async () => {
      const agent = await signedIn();
      const other = await signedIn();
      const town = (slug: string) => ({ source: 'showcase', page_path: `/long-island-real-estate/${slug}` });
      await addLeads(suite.db, agent.id, [
        town('montauk'),
        town('babylon'),
        town('montauk'),
        town('islip'),
        town('babylon'),
      ]);
      await addLeads(suite.db, other.id, [town('northport'), town('amagansett')]);
      const names = (answer: { towns: { name: string }[] }) => answer.towns.map((found) => found.name);
      expect(names(await list(agent.client))).toEqual(['Babylon', 'Islip', 'Montauk']);
      // A filter narrows the leads, not the towns the filter offers.
      expect(names(await list(agent.client, '?town=islip'))).toEqual(['Babylon', 'Islip', 'Montauk']);
      expect(names(await list(other.client))).toEqual(['Amagansett', 'Northport']);
    });

    it('files a lead by the page its form was on: a town page is its town, filterable, not "Showcase" (issue 23, M1)', async () => {
      const agent = await signedIn();
      const [huntington, home, bayShore, estimate, legacy] = await addLeads(suite.db, agent.id, [
        {
          source: 'showcase',
          page_path: '/long-island-real-estate/huntington',
          utm: { source: 'facebook', campaign: 'fall' },
        },
        { source: 'showcase', page_path: '/' },
        { source: 'showcase', page_path: '/long-island-real-estate/bay-shore/' },
        { source: 'calculator', page_path: '/estimate/0b9f6a53-5d7a-4a7e-9d1f-3f0f6d1c2a11' },
        { source: 'nassau_county_page', page_path: null },
      ]);
      const page = await list(agent.client);
      const row = (id: number | undefined) => page.leads.find((lead) => lead.id === id);
      expect(row(huntington)).toMatchObject({
        origin: 'town',
        source_label: 'Town page: Huntington',
        utm: { source: 'facebook', campaign: 'fall' },
      });
      expect(row(home)).toMatchObject({ origin: 'home', source_label: 'Home page', utm: null });
      expect(row(estimate)).toMatchObject({ origin: 'estimate', source_label: 'Estimate page' });
      expect(row(legacy)).toMatchObject({ origin: 'nassau_county', source_label: 'Nassau County page' });
      // The filter offers the towns the leads came from, by name.
      expect(page.towns).toEqual([
        { slug: 'bay-shore', name: 'Bay Shore' },
        { slug: 'huntington', name: 'Huntington' },
      ]);
      const ids = async (query: string) => (await list(agent.client, query)).leads.map((lead) => lead.id);
      expect(await ids('?source=town')).toEqual([bayShore, huntington]);
      expect(await ids('?source=town&town=huntington')).toEqual([huntington]);
      expect(await ids('?town=bay-shore')).toEqual([bayShore]);
      expect(await ids('?source=home')).toEqual([home]);
      // The old values still work, as the kind of page they stood for.
      expect(await ids('?source=nassau_county_page')).toEqual([legacy]);
      expect(await ids('?source=showcase')).toEqual([home]);
      await expectFieldError(
        await agent.client.get('/api/leads?town=Bay%20Shore'),
        'town',
        'Town must be a town page name such as bay-shore',
      );
      // The CSV says where in words, the page and the campaign.
      const { records } = await csv(agent.client, '?source=town&town=huntington');
      expect(records[1]?.slice(4, 5)).toEqual(['Town page: Huntington']);
      expect(records[1]?.slice(11)).toEqual(['/long-island-real-estate/huntington', 'source=facebook; campaign=fall']);
    });

    it("the database files every page as lead-origin.ts does (migration 0025's column and originOf agree)", async () => {
      const agent = await signedIn();
      const cases: SeedLead[] = [
        ...[null, '/', '//', '/long-island-real-estate/nassau-county', '/long-island-real-estate/suffolk-county/']
          .concat(['/long-island-real-estate/bay-shore', '/long-island-real-estate/atlantis', '/r/alexmorgan'])
          .concat(['/r/alexmorgan/', '/r/', '/about-alexmorgan', '/estimate', '/estimate/x', '/offers/y', '/offersz'])
          .concat(['/long-island-real-estate/a/b', '/dashboard', '/r/a/b'])
          .map((page_path) => ({ page_path })),
        ...['showcase', 'calculator', 'nassau_county_page', 'suffolk_county_page'].map((source) => ({ source })),
      ];
      const ids = await addLeads(suite.db, agent.id, cases);
      const rows = await suite.db.query<{ id: number; origin: string; page_town: string | null }>(
        'SELECT id, origin, page_town FROM leads WHERE id = ANY($1::int[]) ORDER BY id',
        [ids],
      );
      expect(rows.map((row) => [row.origin, row.page_town])).toEqual(
        cases.map((lead) => [
          originOf(lead.page_path ?? null, lead.source ?? 'calculator'),
          lead.page_path?.startsWith('/long-island-real-estate/') ? townSlugOf(lead.page_path) : null,
        ]),
      );
    });

    it('refuses bad paging, dates, sources and an oversized search with the field and why', async () => {
      const agent = await signedIn();
      const refused = async (query: string, field: string, message: string) => {
        const body = await expectError(await agent.client.get(`/api/leads${query}`), 400, message);
        expect(body.fields).toEqual({ [field]: message });
      };
      await refused('?page=0', 'page', 'Page must be at least 1');
      await refused('?page=-2', 'page', 'Page must be at least 1');
      await refused('?page=two', 'page', 'Page must be a whole number');
      await refused('?page=1.5', 'page', 'Page must be a whole number');
      await refused('?page=1e9', 'page', 'Page must be at most 1000000');
      await refused('?per_page=101', 'per_page', 'Per page must be at most 100');
      await refused('?per_page=0', 'per_page', 'Per page must be at least 1');
      await refused('?from=2026-02-30', 'from', 'From date is not a real date');
      await refused('?to=03/09/2026', 'to', 'To date must be a date like 2026-01-31');
      await refused('?from=2026-03-10&to=2026-03-09', 'to', 'From date must be on or before To date');
      await refused(
        '?source=zillow',
        'source',
        'Source must be one of home, nassau_county, suffolk_county, town, agent_page, about_page, estimate, offers, other',
      );
      await refused(`?search=${'a'.repeat(101)}`, 'search', 'Search must be at most 100 characters');
      expect((await list(agent.client, `?search=${'a'.repeat(100)}`)).total).toBe(0);
    });

    it('costs one database round trip with the session check, filtered or not, empty page or not', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(3));
      for (const query of ['', '?search=series&source=calculator&from=2026-01-01&to=2026-12-31', '?page=5']) {
        const before = suite.db.roundTrips;
        await list(agent.client, query);
        expect(suite.db.roundTrips - before, query).toBe(1);
      }
    });
  });

  describe('own data only', () => {
    it('agent B never sees, exports or clears agent A’s leads, whatever ids B sends', async () => {
      const a = await signedIn();
      const b = await signedIn();
      const aLeads = await addLeads(suite.db, a.id, series(3, Date.UTC(2026, 1, 1), { first_name: 'Alpha' }));
      const [bLead] = await addLeads(suite.db, b.id, [{ first_name: 'Bravo' }]);

      for (const query of ['', `?agent_id=${a.id}`, `?agent_id=${a.id}&id=${aLeads[0]}`, '?search=Alpha']) {
        const body = await list(b.client, query);
        expect(body.leads.every((lead) => lead.id === bLead)).toBe(true);
      }
      // Whatever agent B names, B's export is B's own leads (every agent's is the admin's export).
      expect((await csv(b.client, `?agent_id=${a.id}&agent=${a.id}`)).records).toHaveLength(2);
      const exported = await csv(b.client, `?search=Alpha`);
      expect(exported.records).toHaveLength(1);
      const own = await csv(b.client);
      expect(own.records).toHaveLength(2);
      expect(own.records[1]?.[0]).toMatch(/^Bravo /);

      const response = await b.client.request(`/api/leads?agent_id=${a.id}`, {
        method: 'DELETE',
        headers: { origin: suite.api.origin },
      });
      expect(await expectJson(response, 200, cleared)).toEqual({ success: true, deleted: 1 });
      expect((await list(a.client)).leads.map((lead) => lead.id)).toEqual([...aLeads].reverse());
    });

    it('an admin gets their own leads here, not every agent’s', async () => {
      const admin = await signedIn(true);
      const other = await signedIn();
      await addLeads(suite.db, other.id, series(2));
      const [own] = await addLeads(suite.db, admin.id, [{ first_name: 'Own' }]);
      expect((await list(admin.client)).leads.map((lead) => lead.id)).toEqual([own]);
      expect((await csv(admin.client)).records).toHaveLength(2);
      expect(await expectJson(await clear(admin.client), 200, cleared)).toEqual({ success: true, deleted: 1 });
      expect((await list(other.client)).total).toBe(2);
    });

    it('answers 401 signed out, and once the session is stale or the agent inactive, reading nothing', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(2));
      const anonymous = suite.client();
      await expectError(await anonymous.get('/api/leads'), 401, 'Please log in');
      await expectError(await anonymous.get('/api/leads/export.csv'), 401, 'Please log in');
      await expectError(await clear(anonymous), 401, 'Please log in');

      await suite.db.query('UPDATE agents SET session_version = session_version + 1 WHERE id = $1', [agent.id]);
      await expectError(await agent.client.get('/api/leads'), 401, 'Please log in');
      await expectError(await agent.client.get('/api/leads/export.csv'), 401, 'Please log in');
      await expectError(await clear(agent.client), 401, 'Please log in');

      const inactive = await signedIn();
      await addLeads(suite.db, inactive.id, series(1));
      await suite.db.query(`UPDATE agents SET status = 'inactive' WHERE id = $1`, [inactive.id]);
      await expectError(await clear(inactive.client), 401, 'Please log in');
      const [left] = await suite.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE agent_id = $1', [
        inactive.id,
      ]);
      expect(left?.n).toBe(1);
    });
  });

  describe('DELETE /api/leads', () => {
    it('clears the caller’s leads in one round trip and answers how many; their e-mail records stay', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(4));
      // A lead through the public form queues the agent's notice, tied to the lead.
      const visitor = suite.client();
      const posted = await expectJson(
        await visitor.post('/api/leads', {
          agent_id: agent.id,
          first_name: 'Dana',
          last_name: 'Lopez',
          email: 'dana.clear@example.com',
          phone: '516-555-0123',
          consent_marketing: true,
        }),
        201,
        z.object({ lead: z.object({ id: z.number() }) }).loose(),
      );
      await suite.settle();
      const [notice] = await suite.db.query<{ id: number }>('SELECT id FROM email_deliveries WHERE lead_id = $1', [
        posted.lead.id,
      ]);
      if (!notice) throw new Error('no notice was queued for the lead');

      const before = suite.db.roundTrips;
      expect(await expectJson(await clear(agent.client), 200, cleared)).toEqual({ success: true, deleted: 5 });
      expect(suite.db.roundTrips - before).toBe(1);
      expect(await list(agent.client)).toEqual({
        success: true,
        leads: [],
        towns: [],
        total: 0,
        page: 1,
        per_page: 25,
      });
      expect(await deliveryById(suite.db, notice.id)).toMatchObject({ lead_id: null, kind: 'new_lead' });
      expect(await expectJson(await clear(agent.client), 200, cleared)).toEqual({ success: true, deleted: 0 });

      // The same visitor may leave a new lead at once: the repeat window went with the lead.
      const again = await visitor.post('/api/leads', {
        agent_id: agent.id,
        first_name: 'Dana',
        last_name: 'Lopez',
        email: 'dana.clear@example.com',
        phone: '516-555-0123',
        consent_marketing: true,
      });
      expect(again.status).toBe(201);
      expect((await list(agent.client)).total).toBe(1);
    });

    it('with the list’s filters deletes exactly the leads the list matches, in one round trip', async () => {
      const agent = await signedIn();
      const other = await signedIn();
      await addLeads(suite.db, agent.id, [
        { first_name: 'Dana', email: 'dana.keep@example.com', created_at: '2026-07-01T12:00:00Z' },
        { first_name: 'Dana', email: 'dana.go@example.com', source: 'showcase', created_at: '2026-07-02T12:00:00Z' },
        { first_name: 'Pat', email: 'pat.go@example.com', source: 'showcase', created_at: '2026-07-03T12:00:00Z' },
        { first_name: 'Lee', email: 'lee.keep@example.com', source: 'showcase', created_at: '2026-05-01T12:00:00Z' },
      ]);
      await addLeads(suite.db, other.id, [
        { first_name: 'Dana', source: 'showcase', created_at: '2026-07-02T12:00:00Z' },
      ]);
      const query = '?search=go%40&source=home&from=2026-06-01';
      const matched = await list(agent.client, query);
      expect(matched.total).toBe(2);

      const before = suite.db.roundTrips;
      const response = await agent.client.request(`/api/leads${query}`, {
        method: 'DELETE',
        headers: { origin: suite.api.origin },
      });
      expect(await expectJson(response, 200, cleared)).toEqual({ success: true, deleted: 2 });
      expect(suite.db.roundTrips - before).toBe(1);
      expect((await list(agent.client)).leads.map((lead) => lead.email)).toEqual([
        'dana.keep@example.com',
        'lee.keep@example.com',
      ]);
      expect((await list(other.client)).total).toBe(1);

      // A filter the list would refuse deletes nothing.
      const bad = await agent.client.request('/api/leads?from=2026-07-10&to=2026-07-01', {
        method: 'DELETE',
        headers: { origin: suite.api.origin },
      });
      await expectFieldError(bad, 'to', 'From date must be on or before To date');
      expect((await list(agent.client)).total).toBe(2);
    });

    it('is refused from another site (no Origin of ours), deleting nothing', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(2));
      const response = await agent.client.request('/api/leads', {
        method: 'DELETE',
        headers: { origin: 'https://evil.example' },
      });
      expect(response.status).toBe(403);
      expect((await list(agent.client)).total).toBe(2);
    });
  });

  describe('GET /api/leads/export.csv', () => {
    it('is every lead (not one page), the spec’s columns, today’s New York date in the file name', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(30));
      await addLeads(suite.db, agent.id, [
        {
          first_name: 'Dana',
          last_name: 'Lopez',
          email: 'dana@example.com',
          phone: '5165550123',
          address: '12 Elm Street, Garden City',
          source: 'nassau_county_page',
          created_at: '2026-07-01T03:05:00Z',
        },
      ]);
      await suite.db.query(`UPDATE leads SET synced_to_fub = true WHERE agent_id = $1 AND first_name = 'Dana'`, [
        agent.id,
      ]);
      const before = suite.db.roundTrips;
      const { response, records } = await csv(agent.client);
      expect(suite.db.roundTrips - before).toBe(1);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="leads-${today}.csv"`);
      expect(records[0]).toEqual(HEADER);
      expect(records).toHaveLength(32);
      // 3:05 UTC on 1 July is 11:05 pm on 30 June in New York.
      expect(records[1]).toEqual([
        'Dana Lopez',
        'dana@example.com',
        '(516) 555-0123',
        '12 Elm Street, Garden City',
        'Nassau County page',
        '2026-06-30T23:05:00-04:00',
        'Yes',
        '',
        '',
        '',
        '',
        '',
        '',
      ]);
      expect(records[2]?.[0]).toBe('Lee Series30');
      expect(records[2]?.[6]).toBe('No');
      expect(records[31]?.[0]).toBe('Lee Series1');
    });

    it('takes the list’s filters and refuses bad ones', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, [
        { first_name: 'Sam', source: 'showcase', created_at: '2026-04-02T15:00:00Z' },
        { first_name: 'Kim', source: 'calculator', created_at: '2026-04-03T15:00:00Z' },
        { first_name: 'Sam', source: 'calculator', created_at: '2026-05-03T15:00:00Z' },
      ]);
      const names = async (query: string) => (await csv(agent.client, query)).records.slice(1).map((row) => row[5]);
      expect(await names('?search=sam')).toEqual(['2026-05-03T11:00:00-04:00', '2026-04-02T11:00:00-04:00']);
      expect(await names('?source=calculator&to=2026-04-30')).toEqual(['2026-04-03T11:00:00-04:00']);
      // Paging is not a filter of the export: every lead comes.
      expect(await names('?page=2&per_page=1')).toHaveLength(3);
      const bad = await expectError(await agent.client.get('/api/leads/export.csv?from=2026-13-01'), 400);
      expect(bad.fields).toEqual({ from: 'From date is not a real date' });
      await expectError(
        await agent.client.get(`/api/leads/export.csv?search=${'x'.repeat(101)}`),
        400,
        'Search must be at most 100 characters',
      );
    });

    it('quotes as RFC 4180 says and neutralises cells a spreadsheet would run as formulas', async () => {
      const agent = await signedIn();
      const nasty: SeedLead[] = [
        { first_name: '=HYPERLINK("http://evil.example","x")', last_name: '', address: '=1+2' },
        { first_name: '+1', last_name: 'Plus', address: '+SUM(A1:A9)' },
        { first_name: '-2', last_name: 'Minus', address: '-3+4' },
        { first_name: '@cmd', last_name: 'At', address: '@SUM(1)' },
        { first_name: '\tTab', last_name: 'Lead', address: '\tx' },
        { first_name: '\rReturn', last_name: 'Lead', address: '\ry' },
        { first_name: 'Quote', last_name: 'Lead', address: '12 "Elm", Apt 3\nGarden City' },
        { first_name: 'Plain', last_name: 'Lead', address: 'a=b' },
      ];
      await addLeads(
        suite.db,
        agent.id,
        nasty.map((lead, index) => ({ ...lead, created_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString() })),
      );
      const text = await csvText(await agent.client.get('/api/leads/export.csv'));
      expect(text).toContain('"\'=HYPERLINK(""http://evil.example"",""x"")",');
      expect(text).toContain('"12 ""Elm"", Apt 3\nGarden City"');
      const rows = parseCsv(text.slice(1))
        .slice(1)
        .map((row) => [row[0], row[3]]);
      expect(rows).toEqual([
        ['Plain Lead', 'a=b'],
        ['Quote Lead', '12 "Elm", Apt 3\nGarden City'],
        ["'\rReturn Lead", "'\ry"],
        ["'\tTab Lead", "'\tx"],
        ["'@cmd At", "'@SUM(1)"],
        ["'-2 Minus", "'-3+4"],
        ["'+1 Plus", "'+SUM(A1:A9)"],
        ['\'=HYPERLINK("http://evil.example","x")', "'=1+2"],
      ]);
    });

    it('gives each lead’s estimate in figures (a detailed one’s net is its sheet’s) and dates with New York’s offset', async () => {
      const agent = await signedIn();
      const [quick, detailed] = await suite.db.query<{ uuid: string }>(
        `INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                                transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents, details, sheet, sheet_basis)
         VALUES ($1, 65000000, 20000000, 5, 4, 200000, 50000, NULL, NULL, NULL),
                ($1, 30000000, 45000000, 5, 4, 200000, 50000, '{}', '{"net_cents": -16543210}', '{}')
         RETURNING uuid`,
        [agent.id],
      );
      const [winter, summer, none] = await addLeads(suite.db, agent.id, [
        { first_name: 'Quick', created_at: '2026-01-15T17:30:05Z' },
        { first_name: 'Detailed', created_at: '2026-07-15T16:30:05Z' },
        { first_name: 'None', created_at: '2026-07-16T16:30:05Z' },
      ]);
      await suite.db.query('UPDATE leads SET estimate_uuid = $2 WHERE id = $1', [winter, quick?.uuid]);
      await suite.db.query('UPDATE leads SET estimate_uuid = $2 WHERE id = $1', [summer, detailed?.uuid]);
      const { records } = await csv(agent.client);
      const figures = records.slice(1).map((row) => [row[0]?.split(' ')[0], row[5], ...row.slice(7, 11)]);
      // $650,000 less the payoff, 5 % commission ($32,500), transfer tax ($2 a started $500: $2,600),
      // the attorney ($2,000) and recording ($500).
      expect(figures).toEqual([
        ['None', '2026-07-16T12:30:05-04:00', '', '', '', ''],
        ['Detailed', '2026-07-15T12:30:05-04:00', detailed?.uuid, '300000.00', '450000.00', '-165432.10'],
        ['Quick', '2026-01-15T12:30:05-05:00', quick?.uuid, '650000.00', '200000.00', '412400.00'],
      ]);
      expect(none).toBeDefined();
    });

    it('an agent with no lead gets the header row alone', async () => {
      const agent = await signedIn();
      expect((await csv(agent.client)).records).toEqual([HEADER]);
    });
  });
});
