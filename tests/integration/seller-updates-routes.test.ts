/**
 * The seller-updates routes over HTTP on both backends:
 * - POST /api/admin/digests/run: 401 signed out, 403 to an agent, 400 for a bad as_of (its message),
 *   production refusing as_of (an app built for production), and an admin's run answering what was
 *   due, sent and skipped, its e-mails delivered after the answer (a provider holding every send
 *   does not hold the answer);
 * - POST /api/dashboard/updates/sample: sent only to the agent's own address (the delivery row), no
 *   other address accepted, another agent's lead refused, the rate limit (429 after the cap), the
 *   message only once queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_OF_FORMAT, AS_OF_IN_PRODUCTION } from '../../src/features/seller-updates/digest-routes.server.ts';
import { LEAD_NOT_FOUND, SAMPLES_PER_HOUR } from '../../src/features/seller-updates/sample-update.server.ts';
import { expectError, expectTooMany } from '../support/api-suite.ts';
import { clientAs, forgeSession, SESSION_COOKIE, TEST_AUTH, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { heldProvider, TEST_SITE_URL } from '../support/email-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { startApi, type RunningApi } from '../support/http.ts';
import { insertLead } from '../support/seller-signals.ts';
import { addSellers, onLongIsland, setSeries, townsOf } from '../support/seller-updates-suite.ts';

const RUN = '/api/admin/digests/run';
const SAMPLE = '/api/dashboard/updates/sample';
const DAY = '2027-05-12';

describe.each(BACKENDS)('seller-updates routes on %s', (backend) => {
  const suite = useAuthSuite(backend, 'seller-updates-routes');
  // The same database behind an app built for production.
  let production: RunningApi | undefined;
  beforeAll(async () => {
    production = await startApi({ db: suite.db, siteUrl: TEST_SITE_URL, auth: TEST_AUTH, production: true });
  });
  afterAll(() => production?.close());

  const admin = async () => clientAs(suite, (await createAgent(suite.db, { is_admin: true })).id);
  const agent = async () => {
    const row = await createAgent(suite.db);
    return { row, client: await clientAs(suite, row.id) };
  };
  const seriesFor = async () => {
    const [town] = await townsOf(suite.db, 'Nassau', 1);
    if (!town) throw new Error('no Nassau town seeded');
    await setSeries(suite.db, [{ slug: town.slug, base: 655_000, monthlyPercent: 0.5 }], DAY);
    return town;
  };
  const deliveriesTo = (email: string) =>
    suite.db.query<{ kind: string; to_email: string; status: string }>(
      'SELECT kind, to_email, status FROM email_deliveries WHERE to_email = $1 ORDER BY id',
      [email],
    );

  describe(RUN, () => {
    it('answers 401 signed out and 403 to an agent, running nothing', async () => {
      await expectError(await suite.client().post(RUN, {}), 401, 'Please log in');
      await expectError(await (await agent()).client.post(RUN, {}), 403);
    });

    it.each(['yesterday', '2027-13-01', '2027-02-30', '2027-02-30T14:00:00Z', '2027-05-12T14:00', 20270512])(
      'answers 400 for the as_of %j, saying the format',
      async (asOf) => {
        const body = await expectError(await (await admin()).post(RUN, { as_of: asOf }), 400, AS_OF_FORMAT);
        expect(body.fields).toEqual({ as_of: AS_OF_FORMAT });
      },
    );

    it('refuses as_of in production, and runs without it there', async () => {
      const [row] = await suite.db.query<{ id: number; session_version: number }>(
        'SELECT id, session_version FROM agents WHERE id = $1',
        [(await createAgent(suite.db, { is_admin: true })).id],
      );
      if (!row || !production) throw new Error('no admin or no production app');
      const session = await forgeSession({ sub: String(row.id), ver: row.session_version });
      const post = (body: unknown) =>
        production?.fetch(RUN, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: production.origin,
            cookie: `${SESSION_COOKIE}=${session}`,
          },
          body: JSON.stringify(body),
        });
      const refused = await post({ as_of: DAY });
      if (!refused) throw new Error('no answer');
      const body = await expectError(refused, 400, AS_OF_IN_PRODUCTION);
      expect(body.fields).toEqual({ as_of: AS_OF_IN_PRODUCTION });
      expect((await post({}))?.status).toBe(200);
    });

    it("answers what was due, sent and skipped by the end of as_of's Long Island day, delivering after the answer", async () => {
      await suite.db.query(`UPDATE seller_updates SET state = 'paused' WHERE state = 'subscribed'`);
      const town = await seriesFor();
      const common = {
        agentId: suite.test.featuredAgent.id,
        count: 3,
        townSlug: town.slug,
        estimateAt: onLongIsland('2027-01-05', 10),
      };
      // Due at 22:00 on Long Island: a date means its whole day.
      const ids = await addSellers(suite.db, { ...common, tag: 'route', firstDue: onLongIsland(DAY, 22) });
      const skipped = await addSellers(suite.db, {
        ...common,
        count: 1,
        tag: 'routeskip',
        firstDue: onLongIsland(DAY, 8),
      });
      await suite.db.query('UPDATE seller_updates SET estimate_uuid = NULL WHERE id = ANY($1::int[])', [skipped]);
      await addSellers(suite.db, { ...common, count: 2, tag: 'routelater', firstDue: onLongIsland('2027-05-13', 0) });

      const held = heldProvider();
      suite.useProvider(held);
      const answer = await (await admin()).post(RUN, { as_of: DAY });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ success: true, due: 4, sent: 3, skipped: 1 });
      // Answered while the provider still holds every send: the e-mails go after the answer.
      const queued = await suite.db.query<{ status: string }>(
        `SELECT d.status FROM email_deliveries d JOIN seller_updates u ON u.email = d.to_email
          WHERE u.id = ANY($1::int[]) AND d.kind = 'seller_update'`,
        [ids],
      );
      expect(queued.map((row) => row.status)).toEqual(['queued', 'queued', 'queued']);
      held.release();
      await suite.settle();
      expect(held.started).toBe(3);
      const sent = await suite.db.query<{ status: string }>(
        `SELECT d.status FROM email_deliveries d JOIN seller_updates u ON u.email = d.to_email
          WHERE u.id = ANY($1::int[]) AND d.kind = 'seller_update'`,
        [ids],
      );
      expect(sent.map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
    });
  });

  describe(SAMPLE, () => {
    it("queues the sample only to the agent's own address, and says so", async () => {
      await seriesFor();
      const { row, client } = await agent();
      const answer = await client.post(SAMPLE, {});
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({
        success: true,
        message: `Sample queued for ${row.email}: it arrives within a few minutes`,
      });
      await suite.settle();
      const mine = await deliveriesTo(row.email);
      expect(mine).toEqual([{ kind: 'seller_update', to_email: row.email, status: 'sent' }]);
      // The sample's row is the only new update e-mail, and no other address can be named.
      const [others] = await suite.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_deliveries WHERE kind = 'seller_update' AND to_email = 'someone@example.com'`,
      );
      expect(others?.n).toBe(0);
      await expectError(await client.post(SAMPLE, { to: 'someone@example.com' }), 400);
      expect(await deliveriesTo(row.email)).toHaveLength(1);
    });

    it("refuses another agent's lead with no message of success; without market data still queues it to the agent", async () => {
      const { row, client } = await agent();
      const other = await createAgent(suite.db);
      const foreign = await insertLead(suite.db, other.id, 'foreign@example.com', null);
      await expectError(await client.post(SAMPLE, { lead_id: foreign }), 404, LEAD_NOT_FOUND);
      expect(await deliveriesTo(row.email)).toEqual([]);
      const kept = await suite.db.query<{ town_slug: string; zhvi_range: unknown }>(
        'SELECT town_slug, zhvi_range FROM town_market_data',
      );
      await suite.db.query('DELETE FROM town_market_data');
      try {
        expect((await client.post(SAMPLE, {})).status).toBe(200);
      } finally {
        await suite.db.query(
          `INSERT INTO town_market_data (town_slug, zhvi_range)
           SELECT * FROM unnest($1::text[], $2::jsonb[])`,
          [kept.map((town) => town.town_slug), kept.map((town) => JSON.stringify(town.zhvi_range))],
        );
      }
      await suite.settle();
      expect(await deliveriesTo(row.email)).toEqual([{ kind: 'seller_update', to_email: row.email, status: 'sent' }]);
    });

    it(`answers 429 after ${SAMPLES_PER_HOUR.limit} samples in an hour`, async () => {
      await seriesFor();
      const { row, client } = await agent();
      for (let sample = 0; sample < SAMPLES_PER_HOUR.limit; sample += 1) {
        expect((await client.post(SAMPLE, {})).status).toBe(200);
      }
      await expectTooMany(await client.post(SAMPLE, {}), SAMPLES_PER_HOUR.windowSeconds);
      await suite.settle();
      expect(await deliveriesTo(row.email)).toHaveLength(SAMPLES_PER_HOUR.limit);
    });
  });
});
