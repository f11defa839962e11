/**
 * GET /api/leads/export.csv on both backends: every lead in the spec's columns with New York's date
 * in the file name, the list's filters, RFC 4180 quoting with formula cells neutralised, each
 * lead's estimate in figures, the header row alone for an agent with no lead.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api-suite.ts';
import { useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { addLeads, csvText, parseCsv, series, type SeedLead } from '../support/lead-list-suite.ts';
import { leadListRequests } from '../support/lead-list-requests.ts';

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
];

describe.each(BACKENDS)('the agent’s leads on %s', (backend) => {
  const suite = useAuthSuite(backend, 'leadlist-export');
  const { signedIn, csv } = leadListRequests(suite);

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
