/**
 * The leads CSV exports in pages (decision 0029) over real HTTP, asked for as the browser's Export
 * CSV asks (fetchLeadExport): 200,000 leads within the platform's bounds (every answer far under
 * Netlify's 6 MB, each lead once, the file equal to the CSV of one plain query, each page reading
 * about a page of leads however deep: keyset, no OFFSET), pages ended on bytes for long leads, and
 * in small pages: a lead added or removed during an export, the list's filters, the admin's
 * export, and cursors that are not one.
 */
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { Db } from '../../src/platform/db.ts';
import { EXPORT_HEADERS, LEAD_EXPORT } from '../../src/features/leads/public/lead-export.ts';
import { csvLine, LEAD_CSV_COLUMNS, leadCsvCells } from '../../src/features/leads/public/lead-list.ts';
import { LEAD_ORIGINS } from '../../src/features/lead-origin/public/lead-origin.ts';
import { leadSourceLabel } from '../../src/features/lead-origin/public/lead-page.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS, type Backend } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { addLeads, exportCsv, listedLead, listedPage, parseCsv, series } from '../support/lead-list-suite.ts';

/**
 * Leads of the large export on each backend: 200,000 on PostgreSQL (production's database). PGlite
 * writes 200,000 leads (their trigram index and per-day counts) several times slower than the
 * server (over a minute on a busy 2-core machine), so it exports 25,000: three pages, the same
 * protocol and plans.
 */
const LARGE: Record<Backend, number> = { pglite: 25_000, postgres: 200_000 };

/** A lead of the plain query, as the export's cells take it. */
const plainLead = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  source: z.string(),
  created_at: z.date(),
  synced_to_fub: z.boolean(),
  estimate_uuid: z.string().nullable(),
  page_path: z.string().nullable(),
  origin: z.enum(LEAD_ORIGINS),
  utm: z.object({ source: z.string(), campaign: z.string() }).nullable(),
});

/** The agent's whole CSV from one plain query, newest first: what the pages must add up to. */
async function plainCsv(db: Db, agentId: number): Promise<string> {
  const rows = z.array(plainLead).parse(
    await db.query(
      `SELECT id, first_name, last_name, email, phone, address, source, created_at, synced_to_fub, estimate_uuid, page_path,
              origin, utm
         FROM leads WHERE agent_id = $1 ORDER BY created_at DESC, id DESC`,
      [agentId],
    ),
  );
  const lines = rows.map((lead) =>
    csvLine(
      leadCsvCells(
        {
          ...lead,
          // The CSV has no message column.
          message: null,
          created_at: lead.created_at.toISOString(),
          synced_to_fub: lead.synced_to_fub ? 1 : 0,
          source_label: leadSourceLabel(lead.source, lead.page_path),
          // These leads' sellers never asked for updates: the Updates cell is blank.
          updates: null,
        },
        null,
      ),
    ),
  );
  return `\uFEFF${csvLine(LEAD_CSV_COLUMNS)}${lines.join('')}`;
}

/**
 * `count` leads for `agentId` in one statement, of every kind a cell can be: no phone, an address
 * with quotes and commas or none, a name a spreadsheet would run, each source, synced or not, and
 * three of each moment (the keyset must neither skip nor repeat ties at a page's edge).
 */
const insertLeads = (db: Db, agentId: number, count: number) =>
  db.query(
    `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, source, consent_marketing, created_at, synced_to_fub,
                        page_path, utm)
     SELECT $1,
            CASE WHEN n % 97 = 0 THEN '=Bulk' ELSE 'Bulk' END,
            'Lead' || n,
            'bulk' || n || '@example.com',
            CASE WHEN n % 5 = 0 THEN NULL ELSE '516555' || lpad((n % 10000)::text, 4, '0') END,
            CASE WHEN n % 7 = 0 THEN n || ' "Elm", Garden City' WHEN n % 11 = 0 THEN NULL ELSE n || ' Main Street' END,
            (ARRAY['calculator', 'showcase', 'nassau_county_page', 'suffolk_county_page'])[1 + n % 4],
            true,
            make_timestamptz(2031, 1, 1, 0, 0, 0, 'UTC') + (n / 3) * interval '1.000001 second',
            n % 13 = 0,
            (ARRAY[NULL, '/', '/long-island-real-estate/huntington', '/r/bulk-agent', '/long-island-real-estate/nassau-county'])[1 + n % 5],
            CASE WHEN n % 3 = 0 THEN jsonb_build_object('source', 'newsletter', 'campaign', 'spring ' || n) END
       FROM generate_series(1, $2) AS n`,
    [agentId, count],
  );

/** What a plan node of EXPLAIN (ANALYZE, FORMAT JSON) says, as far as these checks read it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
const planNode: z.ZodType<PlanNode> = z.lazy(() =>
  z.object({
    'Node Type': z.string(),
    'Relation Name': z.string().optional(),
    'Index Name': z.string().optional(),
    'Actual Rows': z.number(),
    'Actual Loops': z.number(),
    'Rows Removed by Filter': z.number().optional(),
    Plans: z.array(planNode).optional(),
  }),
);

/** The most rows any one scan of the leads table (or of its indexes) read, kept or filtered out. */
function leadsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'leads' || node['Index Name']?.startsWith('leads')
      ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops']
      : 0;
  return Math.max(own, ...(node.Plans ?? []).map(leadsRead));
}

describe.each(BACKENDS)('the leads CSV export on %s', (backend) => {
  describe('at the platform’s bounds', () => {
    const suite = useAuthSuite(backend, 'leadexport');

    it(`exports ${LARGE[backend].toLocaleString('en-US')} leads in pages far under 6 MB, each lead once, each page reading a page of leads`, async () => {
      const count = LARGE[backend];
      const agent = await createAgent(suite.db);
      await insertLeads(suite.db, agent.id, count);
      await suite.db.query('ANALYZE leads', []);
      const client = await clientAs(suite, agent.id);

      // The statements the pages run, to ask the database how each read the leads.
      const statements: { sql: string; params: readonly unknown[] }[] = [];
      const query = suite.db.query.bind(suite.db);
      const spy = vi.spyOn(suite.db, 'query').mockImplementation((sql, params) => {
        if (sql.includes('matching AS')) statements.push({ sql, params: params ?? [] });
        return query(sql, params);
      });
      let exported: Awaited<ReturnType<typeof exportCsv>>;
      try {
        exported = await exportCsv((url) => client.get(url), '/api/leads/export.csv');
      } finally {
        spy.mockRestore();
      }
      const { text, pages } = exported;

      expect(pages.every((page) => page.status === 200)).toBe(true);
      expect(pages).toHaveLength(Math.ceil(count / LEAD_EXPORT.pageRows));
      expect(pages.reduce((sum, page) => sum + page.rows, 0)).toBe(count);
      const largest = Math.max(...pages.map((page) => page.bytes));
      expect(largest, 'every answer within the page budget').toBeLessThanOrEqual(LEAD_EXPORT.pageBytes);
      expect(largest, 'far under Netlify’s 6 MB').toBeLessThan(6_000_000 / 2);

      const expected = await plainCsv(suite.db, agent.id);
      expect(text.length).toBe(expected.length);
      expect(text === expected, 'the pages end to end are the CSV of one plain query').toBe(true);
      const emails = text.match(/bulk\d+@example\.com/g) ?? [];
      expect(emails).toHaveLength(count);
      expect(new Set(emails).size, 'each lead once').toBe(count);

      // Keyset: the last page reads about a page of leads, as the first does (an OFFSET would read
      // every lead before it). Asked of the database's own count, not of a clock.
      expect(statements).toHaveLength(pages.length);
      for (const statement of [statements[0], statements.at(-1)]) {
        if (!statement) throw new Error('no statement');
        const [row] = await suite.db.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
          statement.params,
        );
        const plan = z.array(z.object({ Plan: planNode })).parse(row?.['QUERY PLAN'])[0]?.Plan;
        if (!plan) throw new Error('no plan');
        expect(leadsRead(plan), 'leads read by one page').toBeLessThanOrEqual(2 * (LEAD_EXPORT.pageRows + 1));
      }
      // Reported, not asserted (a busy machine's clock): the time of a page does not grow with depth.
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const ms = pages.map((page) => page.ms);
      console.log(
        `${backend}: ${count} leads, ${pages.length} pages, ${(text.length / 1e6).toFixed(1)} MB, ` +
          `largest page ${(largest / 1e6).toFixed(2)} MB, median page ${median(ms).toFixed(0)} ms ` +
          `(first half ${median(ms.slice(0, ms.length / 2)).toFixed(0)} ms, last half ${median(ms.slice(ms.length / 2)).toFixed(0)} ms)`,
      );
    }, 120_000);

    it('ends a page on bytes when its leads are long, and the next page goes on from there', async () => {
      const agent = await createAgent(suite.db);
      // Leads as long as the forms allow: ~750 bytes each, so a page ends on bytes after ~2,800.
      const count = 4000;
      await suite.db.query(
        `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, source, consent_marketing, created_at)
         SELECT $1, repeat('Á', 50), repeat('b', 49) || n % 10, 'long' || n || '@' || repeat('e', 200) || '.example.com',
                '5165550100', repeat('1 Long Road, ', 23), 'calculator', true,
                make_timestamptz(2032, 1, 1, 0, 0, 0, 'UTC') + n * interval '1 second'
           FROM generate_series(1, $2) AS n`,
        [agent.id, count],
      );
      const client = await clientAs(suite, agent.id);
      const { text, pages } = await exportCsv((url) => client.get(url), '/api/leads/export.csv');
      expect(pages).toHaveLength(2);
      expect(pages.every((page) => page.bytes <= LEAD_EXPORT.pageBytes)).toBe(true);
      expect(pages[0]?.bytes, 'the first page is filled to near its budget').toBeGreaterThan(
        LEAD_EXPORT.pageBytes - 1000,
      );
      expect(pages.reduce((sum, page) => sum + page.rows, 0)).toBe(count);
      expect(text).toBe(await plainCsv(suite.db, agent.id));
    }, 60_000);
  });

  describe('in small pages', () => {
    const suite = useAuthSuite(backend, 'leadexportpages', { leadExportPageRows: 4 });

    async function signedIn(admin = false): Promise<{ id: number; client: Client }> {
      const agent = await createAgent(suite.db, { is_admin: admin });
      return { id: agent.id, client: await clientAs(suite, agent.id) };
    }

    it('a lead added during the export is not in it and moves no page; one removed is just not there', async () => {
      const agent = await signedIn();
      const ids = await addLeads(suite.db, agent.id, series(10));
      let pagesSeen = 0;
      const { text, pages } = await exportCsv(async (url) => {
        const response = await agent.client.get(url);
        pagesSeen += 1;
        if (pagesSeen === 1) {
          // After the first page: a visitor sends a lead, and the agent deletes one not yet exported.
          await addLeads(suite.db, agent.id, [{ last_name: 'Newcomer', created_at: new Date().toISOString() }]);
          await suite.db.query('DELETE FROM leads WHERE id = $1', [ids[2]]);
        }
        return response;
      }, '/api/leads/export.csv');
      expect(pages.map((page) => page.rows)).toEqual([4, 4, 1]);
      expect(pages[0]?.url).toBe('/api/leads/export.csv');
      const names = parseCsv(text.slice(1))
        .slice(1)
        .map((row) => row[0]);
      expect(names).toEqual([10, 9, 8, 7, 6, 5, 4, 2, 1].map((index) => `Lee Series${index}`));
    });

    it('exports exactly the leads the list shows for the same filters', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, [
        ...series(5, Date.UTC(2033, 3, 2, 15), { first_name: 'Sam', source: 'showcase' }),
        ...series(6, Date.UTC(2033, 3, 3, 15), { first_name: 'Kim' }),
        ...series(3, Date.UTC(2033, 4, 3, 15), { first_name: 'Sam', phone: '(631) 555-7788' }),
      ]);
      const list = listedPage(listedLead);
      const filterSets: Record<string, string>[] = [
        {},
        { search: 'sam' },
        { search: '631-555-77' },
        { source: 'calculator', to: '2033-04-30' },
        { from: '2033-04-03', to: '2033-04-03' },
      ];
      for (const filters of filterSets) {
        const query = new URLSearchParams({ ...filters, per_page: '100' });
        const shown = await expectJson(await agent.client.get(`/api/leads?${query.toString()}`), 200, list);
        const { text, pages } = await exportCsv((url) => agent.client.get(url), '/api/leads/export.csv', filters);
        const exported = parseCsv(text.slice(1)).slice(1);
        const label = JSON.stringify(filters);
        expect(
          exported.map((row) => [row[0], row[1]]),
          label,
        ).toEqual(shown.leads.map((lead) => [`${lead.first_name} ${lead.last_name}`, lead.email]));
        expect(pages.length, label).toBe(Math.max(1, Math.ceil(shown.total / 4)));
      }
    });

    it('the admin’s export goes by pages too, with the agent’s name, and stays the admin’s', async () => {
      const admin = await signedIn(true);
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(9, Date.UTC(2034, 0, 1)));
      const { text, pages } = await exportCsv((url) => admin.client.get(url), '/api/admin/leads/export.csv', {
        agent: agent.id,
      });
      expect(pages.map((page) => page.rows)).toEqual([4, 4, 1]);
      const rows = parseCsv(text.slice(1));
      expect(rows[0]?.at(-1)).toBe('Agent');
      expect(rows.slice(1).map((row) => row[0])).toEqual(
        Array.from({ length: 9 }, (_, index) => `Lee Series${9 - index}`),
      );
      const second = pages[1]?.url ?? '';
      expect(second).toMatch(/[?&]cursor=/);
      // A later page is checked like the first: an agent is refused, and so is a signed-out caller.
      await expectError(await agent.client.get(second), 403, 'Admins only');
      await expectError(await suite.client().get(second), 401, 'Please log in');
      // The agent's own export never reaches another agent's leads, cursor or not.
      const own = await exportCsv((url) => admin.client.get(url), '/api/leads/export.csv');
      expect(own.text).toBe(`\uFEFF${csvLine(LEAD_CSV_COLUMNS)}`);
    });

    it('refuses a cursor that is not one with 400 and says to start again', async () => {
      const agent = await signedIn();
      await addLeads(suite.db, agent.id, series(5));
      const first = await agent.client.get('/api/leads/export.csv');
      const next = first.headers.get(EXPORT_HEADERS.next);
      expect(next).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_\d+$/);
      expect(first.headers.get(EXPORT_HEADERS.total)).toBe('5');
      const message = 'Cursor must be the X-Export-Next header of the previous page: start the export again';
      for (const cursor of [
        'abc',
        '2031-02-30T00:00:00.000000Z_1',
        '2031-01-01T00:00:00.000000Z_0',
        '2031-01-01T00:00:00.000000Z_99999999999',
        '2031-01-01T00:00:00Z_1',
        `${next ?? ''}x`,
        'x'.repeat(5000),
      ]) {
        for (const path of ['/api/leads/export.csv', '/api/admin/leads/export.csv']) {
          const url = `${path}?cursor=${encodeURIComponent(cursor)}`;
          const body = await expectError(await agent.client.get(url), 400, message);
          expect(body.fields, url).toEqual({ cursor: message });
        }
      }
      const page = await agent.client.get(`/api/leads/export.csv?cursor=${encodeURIComponent(next ?? '')}`);
      expect(page.status).toBe(200);
      expect(page.headers.get(EXPORT_HEADERS.rows)).toBe('1');
      expect(page.headers.get(EXPORT_HEADERS.total), 'the total is on the first page only').toBeNull();
      expect(page.headers.get(EXPORT_HEADERS.next)).toBeNull();
    });
  });
});
