/**
 * The matrix's rows of the public site: A's page, A's estimate and its sheets, A's offers, the forms
 * that go to A, unsubscribing, and the towns' and market data. Every caller gets the same answer.
 */
import { randomBytes } from 'node:crypto';
import { unsubscribeSigner } from '../../../src/features/email/unsubscribe.server.ts';
import { updateLinkSigner } from '../../../src/features/seller-updates/public/update-links.server.ts';
import { TEST_AUTH } from '../../support/auth-suite.ts';
import { everyone, type MatrixRow } from './cells.ts';
import { twoOffers } from './party.ts';

const unsubscribeToken = (email: string) => unsubscribeSigner(TEST_AUTH.sessionKey).token(email);
/** A genuine confirmation token of a subscription nobody has: every caller is told it no longer exists. */
const confirmToken = () =>
  updateLinkSigner(TEST_AUTH.sessionKey).token({ subscriptionId: 2_000_000_000, period: 0, link: 'confirm' });

export const PUBLIC_SITE_ROWS: Record<string, MatrixRow> = {
  // The public site: A's page, A's estimate and its sheets, A's offers, and forms that go to A.
  'GET /api/global/settings': { request: () => ({ path: '/api/global/settings' }), expect: everyone(200) },
  'GET /api/openapi.json': {
    request: () => ({ path: '/api/openapi.json' }),
    expect: everyone(200, () => ['"openapi":"3.1']),
  },
  'GET /api/showcase/settings': { request: () => ({ path: '/api/showcase/settings' }), expect: everyone(200) },
  'GET /api/agents/public/:slug': {
    request: (w) => ({ path: `/api/agents/public/${w.a.slug}` }),
    expect: everyone(200, (w) => [w.a.first_name]),
  },
  'POST /api/estimates': {
    request: (w) => ({
      path: '/api/estimates',
      json: { agent_slug: w.a.slug, sale_price: 650000, mortgage_payoff: 200000 },
    }),
    expect: everyone(201),
  },
  'GET /api/estimates/:uuid': {
    request: (w) => ({ path: `/api/estimates/${w.a.estimateUuid}` }),
    expect: everyone(200, (w) => [w.a.estimateUuid]),
  },
  'GET /api/estimates/:uuid/pdf': {
    request: (w) => ({ path: `/api/estimates/${w.a.estimateUuid}/pdf` }),
    expect: everyone(200),
  },
  'POST /api/estimates/reverse': {
    request: (w) => ({
      path: '/api/estimates/reverse',
      json: { agent_slug: w.a.slug, target_net: 400000, mortgage_payoff: 100000 },
    }),
    expect: everyone(201),
  },
  'GET /api/estimates/:uuid/sheet': {
    request: (w) => ({ path: `/api/estimates/${w.a.estimateUuid}/sheet` }),
    expect: everyone(200),
  },
  'GET /api/estimates/:uuid/range': {
    request: (w) => ({ path: `/api/estimates/${w.a.estimateUuid}/range` }),
    expect: everyone(200),
  },
  'POST /api/offers': {
    request: (w) => ({ path: '/api/offers', json: { estimate_uuid: w.a.estimateUuid, offers: twoOffers } }),
    expect: everyone(201),
  },
  'GET /api/offers/:uuid': {
    request: (w) => ({ path: `/api/offers/${w.a.offersUuid}` }),
    expect: everyone(200),
  },
  'GET /api/offers/:uuid/pdf': {
    request: (w) => ({ path: `/api/offers/${w.a.offersUuid}/pdf` }),
    expect: everyone(200),
  },
  'POST /api/leads': {
    request: (w) => ({
      path: '/api/leads',
      json: {
        agent_slug: w.a.slug,
        firstName: 'Robin',
        lastName: 'Seller',
        phone: '(631) 555-0142',
        email: `robin.${randomBytes(4).toString('hex')}@example.com`,
        consent_marketing: true,
      },
    }),
    expect: everyone(201),
  },
  'POST /api/email/send-estimate': {
    // A's estimate of the cell's own, with the lead its seller just sent (three sends an estimate an hour).
    request: async (w, _caller, suite) => {
      const email = `robin.${randomBytes(4).toString('hex')}@example.com`;
      const [row] = await suite.db.query<{ uuid: string }>(
        `WITH e AS (
           INSERT INTO estimates (agent_id, sale_price_cents, mortgage_payoff_cents, commission_percent,
                                  transfer_tax_rate_per_1000, attorney_fee_cents, recording_fee_cents)
           VALUES ($1, 78020000, 45000000, 6, 4, 75000, 17500) RETURNING uuid
         ),
         l AS (
           INSERT INTO leads (agent_id, first_name, last_name, email, source, consent_marketing, estimate_uuid,
                              estimate_recorded_at)
           SELECT $1, 'Robin', 'Seller', $2, 'calculator', true, uuid, now() FROM e
         )
         SELECT uuid::text AS uuid FROM e`,
        [w.a.id, email],
      );
      return {
        path: '/api/email/send-estimate',
        json: { estimate_uuid: row?.uuid, recipient_email: email, recipient_name: 'Robin Seller' },
      };
    },
    expect: everyone(202),
  },
  'POST /api/templates': {
    request: (w) => ({
      path: '/api/templates',
      json: { uuid: w.a.estimateUuid, first_name: 'Robin', sender_name: w.a.first_name },
    }),
    expect: everyone(200),
  },
  'GET /api/email/unsubscribe': {
    request: () => ({ path: `/api/email/unsubscribe?token=${unsubscribeToken('robin@example.com')}` }),
    expect: everyone(303),
  },
  'POST /api/email/unsubscribe': {
    request: () => ({ path: '/api/email/unsubscribe', json: { token: unsubscribeToken('robin@example.com') } }),
    expect: everyone(200),
  },
  'DELETE /api/email/unsubscribe': {
    request: () => ({ path: '/api/email/unsubscribe', json: { token: unsubscribeToken('robin@example.com') } }),
    expect: everyone(200),
  },
  'POST /api/updates/confirm': {
    request: () => ({ path: '/api/updates/confirm', json: { token: confirmToken() } }),
    expect: everyone(404),
  },
  // A signed link of an update: the same for every caller (a seller follows it signed out); the
  // subscription named does not exist here, so it is refused alike (the route's own tests follow real ones).
  'GET /api/updates/go/:token': {
    request: () => ({
      path: `/api/updates/go/${updateLinkSigner(TEST_AUTH.sessionKey).token({ subscriptionId: 2_000_000_000, period: 1, link: 'agent' })}`,
    }),
    expect: everyone(404),
  },
  'GET /api/towns/:slug': { request: () => ({ path: '/api/towns/bay-shore' }), expect: everyone(200) },
  'GET /api/towns/:slug/sold': { request: () => ({ path: '/api/towns/montauk/sold' }), expect: everyone(200) },
  'GET /api/zillow/market': { request: () => ({ path: '/api/zillow/market?town=montauk' }), expect: everyone(200) },
  'GET /api/sold': { request: () => ({ path: '/api/sold?town=montauk' }), expect: everyone(200) },
};
