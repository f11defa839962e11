/**
 * GET /api/leads by where a lead came from, on both backends: the towns of the agent's own
 * town-page leads offered once, a lead filed by the page its form was on (a town page is its town),
 * and the database filing every page as lead-origin.ts does.
 */
import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { originOf, townSlugOf } from '../../src/features/lead-origin/public/lead-origin.ts';
import { addLeads, type SeedLead } from '../support/lead-list-suite.ts';
import { leadListRequests } from '../support/lead-list-requests.ts';

describe.each(BACKENDS)('the agent’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'leadlist-origins');
  const { signedIn, list, csv } = leadListRequests(suite);

  describe('GET /api/leads', () => {
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
      expect(records[1]?.slice(11, 13)).toEqual([
        '/long-island-real-estate/huntington',
        'source=facebook; campaign=fall',
      ]);
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
  });
});
