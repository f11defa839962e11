/**
 * The Long Island closing-fee table over HTTP, on both backends: GET and PUT
 * /api/admin/net-sheet-fees for admins only, the researched defaults until an admin changes a fee,
 * a whole table per save (a fee put back to its default stores nothing), refusals fee by fee that
 * write nothing, and readFeeTable giving the estimates the table in force. The rates (the East End
 * Peconic Bay tax, decision 0041) ride in the same table and the same stored document. A save
 * carries the version it was edited from: a stale one is refused (409) with nothing written.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { feeTableAnswerSchema, feeTableSavedSchema } from '../../src/features/net-sheet/fee-table.ts';
import { readFeeTable } from '../../src/features/net-sheet/fee-table.server.ts';
import { defaultFeeTable, type FeeTable } from '../../src/features/net-sheet/fee-table-schema.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const PATH = '/api/admin/net-sheet-fees';

const corrected = (): FeeTable => ({
  ...defaultFeeTable(),
  nassau_block_fee: { cents: 0, checked: '2026-11-20', source: 'https://www.nassaucountyny.gov/clerk/fees' },
  title_closer_pickup: { cents: 300_00, checked: '2026-11-21', source: 'A local title closer, by phone' },
});

describe.each(BACKENDS)('the closing-fee table on %s', (backend) => {
  const suite = useAuthSuite(backend, 'netsheetfees');

  const adminClient = async (): Promise<Client> => {
    const agent = await createAgent(suite.db, { is_admin: true });
    return clientAs(suite, agent.id);
  };
  const agentClient = async () => clientAs(suite, (await createAgent(suite.db)).id);
  const storedVersion = async () =>
    (await suite.db.query<{ version: number }>('SELECT version FROM net_sheet_fees WHERE id = 1'))[0]?.version ?? 0;
  /** A save as the screen sends it: a table with the version in force, unless the body names its own. */
  const put = async (client: Client, body: unknown) =>
    client.send(
      'PUT',
      PATH,
      typeof body === 'object' && body !== null && !Array.isArray(body) && !('version' in body)
        ? { version: await storedVersion(), ...body }
        : body,
    );
  const stored = async () =>
    (await suite.db.query<{ overrides: unknown }>('SELECT overrides FROM net_sheet_fees WHERE id = 1'))[0]?.overrides;
  const storedKeys = (overrides: unknown) => Object.keys(z.record(z.string(), z.unknown()).parse(overrides)).sort();
  /** Each test starts from the defaults: the table is one site-wide row. */
  const reset = () => suite.db.query(`UPDATE net_sheet_fees SET overrides = '{}' WHERE id = 1`);

  it('answers the researched defaults to an admin until a fee is changed, in one round trip', async () => {
    await reset();
    const admin = await adminClient();
    const before = suite.db.roundTrips;
    const answer = await expectJson(await admin.get(PATH), 200, feeTableAnswerSchema);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(answer.fees).toEqual(defaultFeeTable());
    expect(answer.defaults).toEqual(defaultFeeTable());
    expect(answer.fees.nassau_tax_map_verification.cents).toBe(270_00);
    expect(answer.version).toBe(await storedVersion());
    expect(await readFeeTable(suite.db)).toEqual(defaultFeeTable());
  });

  it('saves the whole table in one statement; GET and readFeeTable then have it', async () => {
    await reset();
    const admin = await adminClient();
    const body = { ...corrected(), version: await storedVersion() };
    const before = suite.db.roundTrips;
    const saved = await expectJson(await put(admin, body), 200, feeTableSavedSchema);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(saved.message).toBe('Closing fees saved');
    expect(saved.fees).toEqual(corrected());
    expect(saved.defaults.nassau_block_fee.cents).toBe(300_00);
    expect((await expectJson(await admin.get(PATH), 200, feeTableAnswerSchema)).fees).toEqual(corrected());
    expect(await readFeeTable(suite.db)).toEqual(corrected());
    // Only the two changed fees are stored; the rest follow the defaults in the code.
    expect(storedKeys(await stored())).toEqual(['nassau_block_fee', 'title_closer_pickup']);
  });

  it('puts a fee back to its researched default by storing nothing for it', async () => {
    await reset();
    const admin = await adminClient();
    await expectJson(await put(admin, corrected()), 200, feeTableSavedSchema);
    const back = { ...corrected(), nassau_block_fee: defaultFeeTable().nassau_block_fee };
    const saved = await expectJson(await put(admin, back), 200, feeTableSavedSchema);
    expect(saved.fees.nassau_block_fee).toEqual(defaultFeeTable().nassau_block_fee);
    expect(storedKeys(await stored())).toEqual(['title_closer_pickup']);
  });

  it('saves a corrected rate with its date and source, stores only it, and resets it by storing nothing', async () => {
    await reset();
    const admin = await adminClient();
    const rate = { percent: 0.75, checked: '2026-11-25', source: 'https://ehamptonny.gov/838' };
    const withRate = { ...defaultFeeTable(), peconic_chf_rate: rate };
    const saved = await expectJson(await put(admin, withRate), 200, feeTableSavedSchema);
    expect(saved.fees.peconic_chf_rate).toEqual(rate);
    expect(saved.defaults.peconic_chf_rate.percent).toBe(0.5);
    expect((await readFeeTable(suite.db)).peconic_chf_rate).toEqual(rate);
    expect(storedKeys(await stored())).toEqual(['peconic_chf_rate']);
    const back = await expectJson(await put(admin, defaultFeeTable()), 200, feeTableSavedSchema);
    expect(back.fees.peconic_chf_rate).toEqual(defaultFeeTable().peconic_chf_rate);
    expect(await stored()).toEqual({});
  });

  it('refuses a save from an older version (409, nothing written) and takes one from the version in force', async () => {
    await reset();
    const admin = await adminClient();
    const other = await adminClient();
    // Both admins open the table at the same version.
    const opened = (await expectJson(await admin.get(PATH), 200, feeTableAnswerSchema)).version;
    expect((await expectJson(await other.get(PATH), 200, feeTableAnswerSchema)).version).toBe(opened);
    const first = await expectJson(await put(other, { ...corrected(), version: opened }), 200, feeTableSavedSchema);
    expect(first.version).toBe(opened + 1);
    // The first admin's save of the whole table, from before that change, would undo it: refused.
    const withRate = {
      ...defaultFeeTable(),
      peconic_chf_rate: { percent: 0.75, checked: '2026-11-25', source: 'https://ehamptonny.gov/838' },
    };
    await expectError(
      await put(admin, { ...withRate, version: opened }),
      409,
      'Someone else changed the fee table since you opened it: reload to see their change',
    );
    expect(storedKeys(await stored())).toEqual(['nassau_block_fee', 'title_closer_pickup']);
    expect(await storedVersion()).toBe(opened + 1);
    // Reloaded, the admin sees the other's change and its version, and saves from it.
    const reloaded = await expectJson(await admin.get(PATH), 200, feeTableAnswerSchema);
    expect(reloaded).toMatchObject({ fees: corrected(), version: opened + 1 });
    const taken = await expectJson(
      await put(admin, { ...reloaded.fees, peconic_chf_rate: withRate.peconic_chf_rate, version: reloaded.version }),
      200,
      feeTableSavedSchema,
    );
    expect(taken.version).toBe(opened + 2);
    expect(storedKeys(await stored())).toEqual(['nassau_block_fee', 'peconic_chf_rate', 'title_closer_pickup']);
  });

  it('of two saves from one version at the same moment takes one whole and refuses the other', async () => {
    await reset();
    const [one, two] = [await adminClient(), await adminClient()];
    const version = await storedVersion();
    const tables = [corrected(), { ...defaultFeeTable(), tp584_filing: { ...corrected().tp584_filing, cents: 7_00 } }];
    const answers = await Promise.all([put(one, { ...tables[0], version }), put(two, { ...tables[1], version })]);
    const statuses = answers.map((answer) => answer.status);
    expect([...statuses].sort()).toEqual([200, 409]);
    // Nothing half-written: the table stored is the taken save's, whole.
    const taken = tables[statuses.indexOf(200)];
    expect(await readFeeTable(suite.db)).toEqual(taken);
    expect(await storedVersion()).toBe(version + 1);
  });

  it('refuses a save without its version, writing nothing', async () => {
    await reset();
    const admin = await adminClient();
    const before = await storedVersion();
    await expectFieldError(
      await admin.send('PUT', PATH, corrected()),
      'version',
      'Reload the page and save again: the fee table’s version is missing',
    );
    expect(await stored()).toEqual({});
    expect(await storedVersion()).toBe(before);
  });

  it('answers 401 signed out and 403 to an agent, even for a bad body, and writes nothing', async () => {
    await reset();
    await expectError(await suite.client().get(PATH), 401, 'Please log in');
    await expectError(await put(suite.client(), corrected()), 401, 'Please log in');
    const agent = await agentClient();
    await expectError(await agent.get(PATH), 403, 'Only admins can change site-wide settings');
    await expectError(await put(agent, corrected()), 403, 'Only admins can change site-wide settings');
    await expectError(await put(agent, '{not json'), 403, 'Only admins can change site-wide settings');
    await expectError(await put(agent, { tp584_filing: 'x' }), 403, 'Only admins can change site-wide settings');
    expect(await stored()).toEqual({});
  });

  const refusals: [string, (table: FeeTable) => unknown, string, string][] = [
    [
      'a negative fee',
      (t) => ({ ...t, rp5217_filing: { ...t.rp5217_filing, cents: -1 } }),
      'rp5217_filing.cents',
      'The amount cannot be negative',
    ],
    [
      'a fraction of a cent',
      (t) => ({ ...t, rp5217_filing: { ...t.rp5217_filing, cents: 12.5 } }),
      'rp5217_filing.cents',
      'The amount must be whole cents',
    ],
    [
      'an amount as a string',
      (t) => ({ ...t, tp584_filing: { ...t.tp584_filing, cents: '500' } }),
      'tp584_filing.cents',
      'The amount must be a number of cents',
    ],
    [
      'an amount over $100,000',
      (t) => ({ ...t, tp584_filing: { ...t.tp584_filing, cents: 100_000_01 } }),
      'tp584_filing.cents',
      'The amount must be at most $100,000',
    ],
    [
      'a date that is not a date',
      (t) => ({ ...t, suffolk_ea5217: { ...t.suffolk_ea5217, checked: '2026-02-30' } }),
      'suffolk_ea5217.checked',
      'The date checked must be a date (YYYY-MM-DD)',
    ],
    [
      'a date in another format',
      (t) => ({ ...t, suffolk_ea5217: { ...t.suffolk_ea5217, checked: '11/23/2026' } }),
      'suffolk_ea5217.checked',
      'The date checked must be a date (YYYY-MM-DD)',
    ],
    [
      'an empty source',
      (t) => ({ ...t, payoff_bank_attorney: { ...t.payoff_bank_attorney, source: '  ' } }),
      'payoff_bank_attorney.source',
      'The source is required',
    ],
    [
      'an oversized source',
      (t) => ({ ...t, payoff_bank_attorney: { ...t.payoff_bank_attorney, source: 'x'.repeat(501) } }),
      'payoff_bank_attorney.source',
      'The source must be at most 500 characters',
    ],
    [
      'a rate over 100%',
      (t) => ({ ...t, peconic_cpf_rate: { ...t.peconic_cpf_rate, percent: 120 } }),
      'peconic_cpf_rate.percent',
      'The rate must be at most 100%',
    ],
    [
      'a rate with more than 4 decimals',
      (t) => ({ ...t, peconic_cpf_rate: { ...t.peconic_cpf_rate, percent: 2.00001 } }),
      'peconic_cpf_rate.percent',
      'The rate can have at most 4 decimals',
    ],
    [
      'a rate as a string',
      (t) => ({ ...t, peconic_chf_rate: { ...t.peconic_chf_rate, percent: '0.5' } }),
      'peconic_chf_rate.percent',
      'The rate must be a number (a percent, e.g. 2.5)',
    ],
    [
      'an exemption over $100,000,000',
      (t) => ({ ...t, peconic_exemption_ceiling: { ...t.peconic_exemption_ceiling, cents: 100_000_000_01 } }),
      'peconic_exemption_ceiling.cents',
      'The amount must be at most $100,000,000',
    ],
    [
      'a missing fee',
      (t) => Object.fromEntries(Object.entries(t).filter(([key]) => key !== 'nassau_block_fee')),
      'nassau_block_fee',
      'Invalid input: expected object, received undefined',
    ],
  ];

  it.each(refusals)('refuses %s with its field, writing nothing', async (_name, edit, field, message) => {
    await reset();
    const admin = await adminClient();
    await expectFieldError(await put(admin, edit(corrected())), field, message);
    expect(await stored()).toEqual({});
  });

  it('refuses an unknown fee key, malformed JSON, an array and an empty body, writing nothing', async () => {
    await reset();
    const admin = await adminClient();
    const unknown = await expectError(await put(admin, { ...corrected(), mansion_tax: corrected().tp584_filing }), 400);
    expect(unknown.error).toMatch(/mansion_tax/);
    await expectError(await put(admin, '{"tp584_filing":'), 400);
    await expectError(await put(admin, [corrected()]), 400);
    await expectError(await put(admin, ''), 400);
    expect(await stored()).toEqual({});
  });

  it('reads a stored fee that breaks the schema as its default', async () => {
    await suite.db.query(
      `UPDATE net_sheet_fees SET overrides = '{"tp584_filing": {"cents": -5}, "gone_fee": {"cents": 1},
         "peconic_cpf_rate": {"percent": 200, "checked": "2026-11-26", "source": "x"}}' WHERE id = 1`,
    );
    expect(await readFeeTable(suite.db)).toEqual(defaultFeeTable());
    await reset();
  });
});
