/**
 * The authorization matrix: every route of the access table (src/app/route-access.ts) × the four
 * callers, with the answer each one gets. Every request is valid apart from who sends it, and its
 * path names agent A's own resources (A's slug, estimate, offers, lead, image), so a cell shows what
 * a caller can do with A's things. What the product does:
 * - signed out: 401 "Please log in" on every agent and admin route, before any handler runs;
 * - agent B (and an admin) on A's lead through the agent routes: 404 "Lead not found", as for a lead
 *   that does not exist; on the agent routes without an id each caller gets their own data, never A's;
 * - agents on admin routes: 403; an admin reads and acts on A's leads and account there;
 * - public routes: the same answer for everyone (A's estimate, offers and page are public by their
 *   unguessable uuid or slug).
 * authorization-matrix.test.ts runs every cell on both backends.
 */
import { profileSchema } from '../../src/features/agents/profile.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect } from 'vitest';
import { hashPassword } from '../../src/features/auth/passwords.server.ts';
import { fubClient } from '../../src/features/crm/fub-client.server.ts';
import { hookBuilder, siteBuilds, type SiteBuilds } from '../../src/features/site-build/site-build.server.ts';
import type { Backend } from '../support/backends.ts';
import { startFakeBuildHook, type FakeBuildHook } from '../fakes/build-hook.ts';
import type { FakeFub } from '../fakes/fub.ts';
import { hashToken } from '../../src/features/auth/tokens.server.ts';
import { unsubscribeSigner } from '../../src/features/email/unsubscribe.server.ts';
import {
  clientAs,
  IP_HEADER,
  SESSION_COOKIE,
  signupBody,
  TEST_AUTH,
  useAuthSuite,
  type AuthSuite,
  type Client,
} from '../support/auth-suite.ts';
import { expectJson } from '../support/api-suite.ts';
import { createAgent } from '../support/fixtures.ts';
import { blobOf, dataUrl, formOf, png } from '../support/images.ts';
import { estimateResponse } from '../support/schemas.ts';
import * as z from 'zod';

export const CALLERS = ['signed out', 'agent A', 'agent B', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

/** One of the three signed-in people, with what the cells name of theirs. */
export interface Party {
  id: number;
  slug: string;
  email: string;
  first_name: string;
  /** In this party's leads and Follow Up Boss account only: an answer carrying it shows their private data. */
  secret: string;
  leadId: number;
  estimateUuid: string;
  offersUuid: string;
  /** Their profile as GET /api/agents/profile answers it, as the profile form sends it back unchanged. */
  profile: Record<string, string>;
  /** Their settings as GET /api/agents/me/settings answers it. */
  settings: Record<string, unknown>;
}

/** What every cell may name: agent A, agent B and an admin, and the site-wide settings as they are. */
export interface World {
  a: Party;
  b: Party;
  admin: Party;
  /** The stored profile photo of A (content-hashed file name under /api/images/). */
  imageFile: string;
  /** Site-wide settings as the admin's screens read them, to save back unchanged. */
  site: { content: unknown; fees: unknown; seo: unknown; mailgun: Record<string, unknown> };
}

/** A request of a cell: a JSON body, a form, or text of a type. */
export interface CellRequest {
  path: string;
  json?: unknown;
  form?: FormData;
  text?: { body: string; type: string };
}

/** What a cell must answer: the status and, for a success, text the answer must carry. */
export interface Expect {
  status: number;
  /** Text the answer carries (a party's secret: their private data is in it). */
  shows?: (world: World) => string[];
}

export interface MatrixRow {
  /**
   * Makes the cell's own world instead of the shared one: for a route that destroys or changes
   * what other cells read (Clear All, disconnecting the CRM, deleting an agent).
   */
  fresh?: boolean;
  request(world: World, caller: Caller, suite: AuthSuite): CellRequest | Promise<CellRequest>;
  expect: Record<Caller, Expect>;
}

/** The party a caller is (signed out sends what A would). */
export const partyOf = (world: World, caller: Caller): Party =>
  caller === 'agent B' ? world.b : caller === 'admin' ? world.admin : world.a;

const ok = (status = 200, shows?: Expect['shows']): Expect => ({ status, ...(shows ? { shows } : {}) });

/** A public route: the same answer for everyone. */
const everyone = (status: number, shows?: Expect['shows']): MatrixRow['expect'] => ({
  'signed out': ok(status, shows),
  'agent A': ok(status, shows),
  'agent B': ok(status, shows),
  admin: ok(status, shows),
});

/** An agent route: 401 signed out; each signed-in caller gets their own answer, carrying `own` of theirs. */
const signedIn = (status: number, own?: (party: Party) => string): MatrixRow['expect'] => ({
  'signed out': { status: 401 },
  'agent A': ok(status, own && ((w) => [own(w.a)])),
  'agent B': ok(status, own && ((w) => [own(w.b)])),
  admin: ok(status, own && ((w) => [own(w.admin)])),
});
const secret = (party: Party) => party.secret;
const email = (party: Party) => party.email;

/** An admin route: 401 signed out, 403 to agents, `status` to the admin (whose answer `shows`). */
const adminOnly = (status = 200, shows?: Expect['shows']): MatrixRow['expect'] => ({
  'signed out': { status: 401 },
  'agent A': { status: 403 },
  'agent B': { status: 403 },
  admin: ok(status, shows),
});
/** An admin's answer about agent A's leads carries A's secret. */
const leadsOfA: Expect['shows'] = (w) => [w.a.secret];

const SAMPLE_ZHVI = readFileSync('data/sample/zhvi.csv', 'utf8');
const twoOffers = [
  { price: 700000, concessions: 0, closing_date: '2027-03-01', financing: 'cash' },
  { price: 720000, concessions: 5000, closing_date: '2027-04-01', financing: 'conventional' },
];
const unsubscribeToken = (email: string) => unsubscribeSigner(TEST_AUTH.sessionKey).token(email);

/** A new agent with a usable e-mail token (as the e-mailed link carries) for `purpose`. */
async function tokenFor(
  suite: AuthSuite,
  purpose: 'verify_email' | 'reset_password' | 'change_email' | 'undo_email_change',
): Promise<string> {
  const agent = await createAgent(suite.db, { status: purpose === 'verify_email' ? 'pending' : 'active' });
  const token = randomBytes(32).toString('base64url');
  // An e-mail change's tokens name their address: the pending new one, or the old one to restore.
  const address = `${purpose}.${randomBytes(4).toString('hex')}@example.com`;
  if (purpose === 'change_email') {
    await suite.db.query('UPDATE agents SET pending_email = $2 WHERE id = $1', [agent.id, address]);
  }
  await suite.db.query(
    `INSERT INTO auth_tokens (token_hash, agent_id, purpose, expires_at, email)
     VALUES ($1, $2, $3, now() + interval '1 hour', $4)`,
    [hashToken(token), agent.id, purpose, address],
  );
  return token;
}

export const MATRIX: Record<string, MatrixRow> = {
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
  'GET /api/towns/:slug': { request: () => ({ path: '/api/towns/bay-shore' }), expect: everyone(200) },
  'GET /api/towns/:slug/sold': { request: () => ({ path: '/api/towns/montauk/sold' }), expect: everyone(200) },
  'GET /api/zillow/market': { request: () => ({ path: '/api/zillow/market?town=montauk' }), expect: everyone(200) },
  'GET /api/sold': { request: () => ({ path: '/api/sold?town=montauk' }), expect: everyone(200) },

  // Accounts: the same for everyone, signed in or not (logging in as A switches the browser to A).
  'POST /api/auth/signup': { request: () => ({ path: '/api/auth/signup', json: signupBody() }), expect: everyone(201) },
  'POST /api/auth/verify-email': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/verify-email',
      json: { token: await tokenFor(suite, 'verify_email') },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/login': {
    request: (w) => ({ path: '/api/auth/login', json: { email: w.a.email, password: PASSWORD } }),
    expect: everyone(200, (w) => [w.a.email]),
  },
  'POST /api/auth/resend-verification': {
    request: (w) => ({ path: '/api/auth/resend-verification', json: { email: w.a.email } }),
    expect: everyone(200),
  },
  'POST /api/auth/forgot-password': {
    request: (w) => ({ path: '/api/auth/forgot-password', json: { email: w.a.email } }),
    expect: everyone(200),
  },
  'POST /api/auth/reset-password': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/reset-password',
      json: { token: await tokenFor(suite, 'reset_password'), password: 'a brand new password' },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/logout': { request: () => ({ path: '/api/auth/logout', json: {} }), expect: everyone(200) },
  'POST /api/auth/confirm-email-change': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/confirm-email-change',
      json: { token: await tokenFor(suite, 'change_email') },
    }),
    expect: everyone(200),
  },
  'POST /api/auth/undo-email-change': {
    request: async (_w, _caller, suite) => ({
      path: '/api/auth/undo-email-change',
      json: { token: await tokenFor(suite, 'undo_email_change') },
    }),
    expect: everyone(200),
  },
  'GET /api/auth/me': { request: () => ({ path: '/api/auth/me' }), expect: signedIn(200, email) },
  'POST /api/auth/logout-everywhere': {
    request: () => ({ path: '/api/auth/logout-everywhere', json: {} }),
    expect: signedIn(200),
  },

  // The agent's dashboard: each caller's own.
  'GET /api/agents/me/overview': { request: () => ({ path: '/api/agents/me/overview' }), expect: signedIn(200) },
  'GET /api/agents/me/settings': { request: () => ({ path: '/api/agents/me/settings' }), expect: signedIn(200) },
  'PATCH /api/agents/me/settings': {
    request: (w, caller) => ({ path: '/api/agents/me/settings', json: partyOf(w, caller).settings }),
    expect: signedIn(200),
  },
  'GET /api/agents/profile': { request: () => ({ path: '/api/agents/profile' }), expect: signedIn(200, email) },
  'PUT /api/agents/profile': {
    request: (w, caller) => ({
      path: '/api/agents/profile',
      form: formOf(partyOf(w, caller).profile),
    }),
    expect: signedIn(200, email),
  },
  'POST /api/upload/profile-photo': {
    request: async () => ({ path: '/api/upload/profile-photo', json: { imageData: dataUrl(await png(80, 80)) } }),
    expect: signedIn(200, email),
  },
  'DELETE /api/upload/profile-photo': {
    request: () => ({ path: '/api/upload/profile-photo' }),
    expect: signedIn(200, email),
  },
  'POST /api/upload/logo': {
    request: async () => ({ path: '/api/upload/logo', json: { imageData: dataUrl(await png(240, 60)) } }),
    expect: signedIn(200, email),
  },
  'DELETE /api/upload/logo': { request: () => ({ path: '/api/upload/logo' }), expect: signedIn(200, email) },
  'GET /api/images/:file': {
    request: (w) => ({ path: `/api/images/${w.imageFile}` }),
    expect: everyone(200),
  },

  // The agent's leads: A's lead is A's alone (an admin reads it on the admin's screens).
  'GET /api/leads': { request: () => ({ path: '/api/leads' }), expect: signedIn(200, secret) },
  'DELETE /api/leads': { fresh: true, request: () => ({ path: '/api/leads' }), expect: signedIn(200) },
  'GET /api/leads/export.csv': { request: () => ({ path: '/api/leads/export.csv' }), expect: signedIn(200, secret) },
  'POST /api/leads/sync-fub': {
    request: (w) => ({ path: '/api/leads/sync-fub', json: { lead_ids: [w.a.leadId] } }),
    expect: { 'signed out': { status: 401 }, 'agent A': ok(200), 'agent B': { status: 404 }, admin: { status: 404 } },
  },
  'GET /api/leads/:id/crm': {
    request: (w) => ({ path: `/api/leads/${w.a.leadId}/crm` }),
    expect: { 'signed out': { status: 401 }, 'agent A': ok(200), 'agent B': { status: 404 }, admin: { status: 404 } },
  },
  'GET /api/agents/me/integrations/fub': {
    request: () => ({ path: '/api/agents/me/integrations/fub' }),
    expect: signedIn(200, secret),
  },
  'PATCH /api/agents/me/integrations/fub': {
    request: () => ({ path: '/api/agents/me/integrations/fub', json: { active: true } }),
    expect: signedIn(200, secret),
  },
  'DELETE /api/agents/me/integrations/fub': {
    fresh: true,
    request: () => ({ path: '/api/agents/me/integrations/fub' }),
    expect: signedIn(200),
  },

  // Site-wide settings: the admin's alone; each save sends what is stored, so it changes nothing.
  'GET /api/agents/me/integrations/mailgun': {
    request: () => ({ path: '/api/agents/me/integrations/mailgun' }),
    expect: adminOnly(),
  },
  'PATCH /api/agents/me/integrations/mailgun': {
    request: (w) => ({ path: '/api/agents/me/integrations/mailgun', json: w.site.mailgun }),
    expect: adminOnly(),
  },
  'POST /api/admin/email/test': { request: () => ({ path: '/api/admin/email/test', json: {} }), expect: adminOnly() },
  'GET /api/seo/settings': { request: () => ({ path: '/api/seo/settings' }), expect: adminOnly() },
  'PUT /api/seo/settings': { request: (w) => ({ path: '/api/seo/settings', json: w.site.seo }), expect: adminOnly() },
  'POST /api/upload/og-image': {
    request: async () => ({ path: '/api/upload/og-image', json: { image: dataUrl(await png(1200, 630)) } }),
    expect: adminOnly(),
  },
  'DELETE /api/upload/og-image': { request: () => ({ path: '/api/upload/og-image' }), expect: adminOnly() },
  'POST /api/upload/website-logo': {
    request: async () => ({ path: '/api/upload/website-logo', json: { image: dataUrl(await png(240, 60)) } }),
    expect: adminOnly(),
  },
  'DELETE /api/upload/website-logo': { request: () => ({ path: '/api/upload/website-logo' }), expect: adminOnly() },
  'POST /api/upload/town-logo': {
    request: async () => ({ path: '/api/upload/town-logo', json: { image: dataUrl(await png(120, 120)) } }),
    expect: adminOnly(),
  },
  'DELETE /api/upload/town-logo': { request: () => ({ path: '/api/upload/town-logo' }), expect: adminOnly() },
  'GET /api/admin/overview': { request: () => ({ path: '/api/admin/overview' }), expect: adminOnly() },
  'GET /api/admin/activity': { request: () => ({ path: '/api/admin/activity' }), expect: adminOnly() },

  // Every agent's leads and accounts: the admin acts on A's.
  'GET /api/admin/leads': {
    request: (w) => ({ path: `/api/admin/leads?agent=${w.a.id}` }),
    expect: adminOnly(200, leadsOfA),
  },
  'GET /api/admin/leads/export.csv': {
    request: (w) => ({ path: `/api/admin/leads/export.csv?agent=${w.a.id}` }),
    expect: adminOnly(200, leadsOfA),
  },
  'GET /api/admin/leads/:id/timeline': {
    request: (w) => ({ path: `/api/admin/leads/${w.a.leadId}/timeline` }),
    expect: adminOnly(200, leadsOfA),
  },
  'GET /api/admin/agents': {
    request: () => ({ path: '/api/admin/agents' }),
    expect: adminOnly(200, (w) => [w.a.email]),
  },
  'POST /api/admin/agents': {
    request: () => {
      const { first_name, last_name, email, slug, brokerage, phone } = signupBody({ phone: '6315550142' });
      return { path: '/api/admin/agents', json: { first_name, last_name, email, slug, brokerage, phone } };
    },
    expect: adminOnly(201),
  },
  'PATCH /api/admin/agents/:id': {
    request: (w) => ({ path: `/api/admin/agents/${w.a.id}`, json: { status: 'active' } }),
    expect: adminOnly(),
  },
  'DELETE /api/admin/agents/:id': {
    fresh: true,
    request: (w) => ({ path: `/api/admin/agents/${w.a.id}` }),
    expect: adminOnly(),
  },
  // Agent A chose a password, so the admin is told the invitation is not needed; nobody else gets that far.
  'POST /api/admin/agents/:id/invitation': {
    request: (w) => ({ path: `/api/admin/agents/${w.a.id}/invitation` }),
    expect: adminOnly(409),
  },

  // The showcase, the public pages' content, the fee table, rebuilds and market data.
  'PATCH /api/agents/me/showcase': {
    request: () => ({
      path: '/api/agents/me/showcase',
      json: {
        showcase_property_price: 899000,
        showcase_property_address: '12 Harbor Road, Northport, NY',
        showcase_property_beds: 4,
        showcase_property_baths: 3,
        showcase_property_sqft: 2400,
      },
    }),
    expect: adminOnly(),
  },
  'GET /api/images/list': { request: () => ({ path: '/api/images/list' }), expect: adminOnly() },
  'POST /api/images/upload': {
    request: async () => ({
      path: '/api/images/upload',
      form: formOf({ image: blobOf(await png(800, 600, `#${randomBytes(3).toString('hex')}`)) }),
    }),
    expect: adminOnly(),
  },
  'DELETE /api/images/delete': {
    request: async (_w, _caller, suite) => {
      // Its own image in the list, so the admin's delete takes nothing another cell reads.
      const path = `/images/matrix-${randomBytes(6).toString('hex')}.jpg`;
      await suite.db.query(
        `UPDATE site_settings SET showcase_images = CASE WHEN showcase_images = '' THEN $1 ELSE showcase_images || ',' || $1 END WHERE id = 1`,
        [path],
      );
      return { path: '/api/images/delete', json: { imagePath: path } };
    },
    expect: adminOnly(),
  },
  'PUT /api/images/order': {
    request: async (_w, _caller, suite) => {
      const [row] = await suite.db.query<{ images: string }>(
        'SELECT showcase_images AS images FROM site_settings WHERE id = 1',
      );
      return { path: '/api/images/order', json: { images: (row?.images ?? '').split(',').filter(Boolean) } };
    },
    expect: adminOnly(),
  },
  'GET /api/admin/site-content': { request: () => ({ path: '/api/admin/site-content' }), expect: adminOnly() },
  'PUT /api/admin/site-content': {
    request: (w) => ({ path: '/api/admin/site-content', json: w.site.content }),
    expect: adminOnly(),
  },
  'GET /api/admin/net-sheet-fees': { request: () => ({ path: '/api/admin/net-sheet-fees' }), expect: adminOnly() },
  'PUT /api/admin/net-sheet-fees': {
    request: (w) => ({ path: '/api/admin/net-sheet-fees', json: w.site.fees }),
    expect: adminOnly(),
  },
  'GET /api/admin/site-build': { request: () => ({ path: '/api/admin/site-build' }), expect: adminOnly() },
  'POST /api/admin/site-build': {
    request: () => ({ path: '/api/admin/site-build', json: {} }),
    expect: adminOnly(202),
  },
  'GET /api/admin/data/runs': { request: () => ({ path: '/api/admin/data/runs' }), expect: adminOnly() },
  'POST /api/admin/data/refresh': {
    request: () => ({ path: '/api/admin/data/refresh', text: { body: '', type: 'text/csv' } }),
    expect: adminOnly(202),
  },
  'PUT /api/admin/data/uploads/:upload/chunks/:index': {
    request: () => ({
      path: `/api/admin/data/uploads/${randomUUID()}/chunks/0?source=zhvi&name=zhvi.csv&size=${SAMPLE_ZHVI.length}`,
      text: { body: SAMPLE_ZHVI, type: 'application/octet-stream' },
    }),
    expect: adminOnly(200),
  },
  'POST /api/admin/data/uploads/:upload/complete': {
    // An upload of the admin's with its one chunk staged, as the screen leaves it before completing.
    request: async (w, _caller, suite) => {
      const upload = randomUUID();
      await suite.db.query(
        `WITH u AS (INSERT INTO market_uploads (id, kind, name, file_bytes, admin_id)
                    VALUES ($1::uuid, 'zhvi', 'zhvi.csv', $2, $3) RETURNING id)
         INSERT INTO market_upload_chunks (upload_id, chunk_index, bytes) SELECT id, 0, convert_to($4, 'UTF8') FROM u`,
        [upload, SAMPLE_ZHVI.length, w.admin.id, SAMPLE_ZHVI],
      );
      return { path: `/api/admin/data/uploads/${upload}/complete`, json: { chunks: 1 } };
    },
    expect: adminOnly(202),
  },
};

/** The password of every party (agent A logs in with it). */
export const PASSWORD = 'matrix-password-0123';

const profileAnswer = z.object({
  success: z.literal(true),
  profile: z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()])),
});
const settingsAnswer = z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) });

/** The editable fields of a profile answer: what PUT /api/agents/profile takes. */
const PROFILE_FIELDS = Object.keys(profileSchema.shape);

/**
 * A party: an agent (an admin when `admin`) with a password, a lead carrying their secret, an
 * estimate with compared offers, and a Follow Up Boss connection (`connect`).
 */
export async function makeParty(
  suite: AuthSuite,
  client: (agentId: number) => Promise<Client>,
  connect: (client: Client) => Promise<void>,
  passwordHash: string,
  admin = false,
): Promise<Party> {
  const secret = `zq${randomBytes(6).toString('hex')}`;
  // A first name of their own (letters only, as the profile form takes), for the public page to show.
  const first_name = `Jamie${randomBytes(4)
    .toString('hex')
    .replace(/\d/g, (digit) => 'ghijklmnop'.charAt(Number(digit)))}`;
  const agent = await createAgent(suite.db, { first_name, is_admin: admin, password_hash: passwordHash });
  const estimate = (
    await expectJson(
      await suite.api.postJson('/api/estimates', {
        agent_slug: agent.slug,
        sale_price: 780200,
        mortgage_payoff: 450000,
      }),
      201,
      estimateResponse,
    )
  ).estimate;
  const offers = await suite.api.postJson('/api/offers', { estimate_uuid: estimate.uuid, offers: twoOffers });
  const offersUuid = z.object({ comparison: z.object({ uuid: z.string() }) }).parse(await offers.json())
    .comparison.uuid;
  const [lead] = await suite.db.query<{ id: number }>(
    `INSERT INTO leads (agent_id, first_name, last_name, email, phone, source, consent_marketing, estimate_uuid)
     VALUES ($1, 'Lead', $2, $2 || '@example.com', '6315550177', 'calculator', true, $3::uuid) RETURNING id`,
    [agent.id, secret, estimate.uuid],
  );
  const self = await client(agent.id);
  await connect(self);
  await suite.db.query(`UPDATE fub_integrations SET account_name = $2 WHERE agent_id = $1`, [agent.id, secret]);
  const { profile } = await expectJson(await self.get('/api/agents/profile'), 200, profileAnswer);
  const { settings } = await expectJson(await self.get('/api/agents/me/settings'), 200, settingsAnswer);
  return {
    id: agent.id,
    slug: agent.slug,
    email: agent.email,
    first_name: agent.first_name,
    secret,
    leadId: lead?.id ?? 0,
    estimateUuid: estimate.uuid,
    offersUuid,
    // A form sends text: true and false for the toggles, nothing for an empty field.
    profile: Object.fromEntries(PROFILE_FIELDS.map((field) => [field, String(profile[field] ?? '')])),
    settings,
  };
}

/** Refresh now reads the sample ZHVI file as if downloaded. */
const zhviFeed = {
  origin: 'https://feeds.example/zhvi.csv',
  open: () => Promise.resolve(Readable.from([SAMPLE_ZHVI])),
};

/** An auth suite whose app has the matrix's outside services, and the world its requests name. */
export interface MatrixSuite {
  suite: AuthSuite;
  /** The world made once for the file. */
  world: () => World;
  /** A new world, for a request that destroys or changes what others read. */
  makeWorld: () => Promise<World>;
  /** One statement reading a digest of every table but the rate-limit counters. */
  digest: () => Promise<unknown>;
  /** A cell's request as a page sends it: this client's cookie and IP, the site's Origin. */
  send: (client: Client, method: string, request: CellRequest) => Promise<Response>;
  signedInAs: (agentId: number) => Promise<Client>;
  /** Waits for the work started after responses, site builds included. */
  settle: () => Promise<void>;
}

/**
 * The matrix's suite on `backend` (call inside a describe block): Follow Up Boss is `fub`, site
 * builds go to a fake build hook, market refreshes read the sample ZHVI file.
 */
export function useMatrixSuite(backend: Backend, label: string, fub: FakeFub): MatrixSuite {
  let hook: FakeBuildHook | undefined;
  let builds: SiteBuilds | undefined;
  // The app is made before the hook exists: its builds go to the hook through this.
  const current: SiteBuilds = {
    mode: 'hook',
    request: (trigger, requestedBy) =>
      builds ? builds.request(trigger, requestedBy) : Promise.reject(new Error('no builds')),
    idle: () => builds?.idle() ?? Promise.resolve(),
  };
  const suite = useAuthSuite(backend, label, {
    crm: { client: fubClient(fub.url), secret: 'matrix-test-encryption-secret-0123456789' },
    siteBuilds: current,
    marketFeeds: () => ({ zhvi: zhviFeed }),
  });

  let world: World | undefined;
  let passwordHash = '';
  let digestSql = '';

  const signedInAs = (agentId: number) => clientAs(suite, agentId);

  function send(client: Client, method: string, request: CellRequest): Promise<Response> {
    const headers: Record<string, string> = { [IP_HEADER]: client.ip, origin: suite.api.origin };
    if (client.session !== undefined) headers.cookie = `${SESSION_COOKIE}=${client.session}`;
    let body: string | FormData | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.text) {
      headers['content-type'] = request.text.type;
      body = request.text.body;
    } else if (request.form) body = request.form;
    return suite.api.fetch(request.path, { method, headers, body, redirect: 'manual' });
  }

  const connect = async (client: Client) => {
    const response = await send(client, 'PATCH', {
      path: '/api/agents/me/integrations/fub',
      json: { api_key: fub.apiKey, active: true },
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };

  /** Agent A, agent B and an admin, each with their own lead, estimate, offers and CRM connection. */
  async function makeWorld(): Promise<World> {
    const a = await makeParty(suite, signedInAs, connect, passwordHash);
    const b = await makeParty(suite, signedInAs, connect, passwordHash);
    const admin = await makeParty(suite, signedInAs, connect, passwordHash, true);
    const asA = await signedInAs(a.id);
    const photo = await expectJson(
      await send(asA, 'POST', { path: '/api/upload/profile-photo', json: { imageData: dataUrl(await png(90, 90)) } }),
      200,
      z.object({ profile: z.object({ profile_photo: z.string() }) }),
    );
    const asAdmin = await signedInAs(admin.id);
    const read = async (path: string) => {
      const response = await asAdmin.get(path);
      expect(response.status, path).toBe(200);
      return z.record(z.string(), z.unknown()).parse(await response.json());
    };
    const mailgun = z
      .record(z.string(), z.unknown())
      .parse((await read('/api/agents/me/integrations/mailgun')).settings);
    return {
      a,
      b,
      admin,
      imageFile: photo.profile.profile_photo.split('/').pop() ?? '',
      site: {
        content: (await read('/api/admin/site-content')).content,
        // The table as the screen saves it: with the version it was read at.
        fees: await read('/api/admin/net-sheet-fees').then(({ fees, version }) => ({
          ...z.record(z.string(), z.unknown()).parse(fees),
          version,
        })),
        seo: (await read('/api/seo/settings')).settings,
        mailgun: Object.fromEntries(
          ['mailgun_domain', 'mailgun_from_name', 'mailgun_from_email'].map((field) => [field, mailgun[field] ?? '']),
        ),
      },
    };
  }

  beforeAll(async () => {
    hook = await startFakeBuildHook();
    builds = siteBuilds(suite.db, hookBuilder(hook.url));
    passwordHash = await hashPassword(PASSWORD);
    world = await makeWorld();
    const tables = await suite.db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'rate_limits' ORDER BY 1`,
    );
    digestSql = `SELECT ${tables
      .map(
        ({ name }) =>
          `(SELECT md5(coalesce(string_agg(md5(t::text), ',' ORDER BY md5(t::text)), '')) FROM "${name}" t) AS "${name}"`,
      )
      .join(', ')}`;
  });
  afterAll(async () => {
    await builds?.idle();
    await hook?.close();
  });

  return {
    suite,
    world: () => {
      if (!world) throw new Error('useMatrixSuite: used before beforeAll ran');
      return world;
    },
    makeWorld,
    digest: async () => (await suite.db.query(digestSql))[0],
    send,
    signedInAs,
    settle: async () => {
      await builds?.idle();
      await suite.settle();
    },
  };
}
