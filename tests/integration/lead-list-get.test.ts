/**
 * GET /api/leads for the signed-in agent, on both backends: newest first 25 a page with the total
 * and the spec's row, the contact form's message, a stable order, the Follow Up Boss sync status,
 * the empty list, search and filters, refused paging and filters, one round trip.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { expectError, expectJson } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { deliveriesOfLead } from '../support/email-suite.ts';
import { addLeads, series } from '../support/lead-list-suite.ts';
import { leadListRequests } from '../support/lead-list-requests.ts';

describe.each(BACKENDS)('the agent’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'leadlist-get');
  const { signedIn, list } = leadListRequests(suite);

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
        updates: null,
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
});
