/**
 * The matrix's rows of the agent's dashboard: each caller's own overview, settings, profile, images,
 * leads and Follow Up Boss connection; A's lead is A's alone.
 */
import { dataUrl, formOf, png } from '../../support/images.ts';
import { email, everyone, ok, partyOf, secret, signedIn, type MatrixRow } from './cells.ts';

/** A's seller: A may change them; B and the admin are told it is no seller of theirs. */
const ownSeller: MatrixRow['expect'] = {
  'signed out': { status: 401 },
  'agent A': ok(200),
  'agent B': { status: 404 },
  admin: { status: 404 },
};

export const AGENT_ROWS: Record<string, MatrixRow> = {
  // The agent's dashboard: each caller's own.
  'GET /api/agents/me/overview': { request: () => ({ path: '/api/agents/me/overview' }), expect: signedIn(200) },
  'GET /api/agents/me/settings': { request: () => ({ path: '/api/agents/me/settings' }), expect: signedIn(200) },
  'PATCH /api/agents/me/settings': {
    request: (w, caller) => ({ path: '/api/agents/me/settings', json: partyOf(w, caller).settings }),
    expect: signedIn(200),
  },
  // The sites allowed to embed the caller's calculator (/dashboard/embed): each caller's own list.
  'GET /api/agents/me/embed': { request: () => ({ path: '/api/agents/me/embed' }), expect: signedIn(200) },
  'PUT /api/agents/me/embed': {
    request: () => ({ path: '/api/agents/me/embed', json: { origins: ['https://www.example.com'] } }),
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
  // A sample update about A's lead's town, to the caller's own address; another's lead is unknown to
  // them. The matrix's world has no market data: the sample still goes, at the sample's own price.
  'POST /api/dashboard/updates/sample': {
    request: (w) => ({ path: '/api/dashboard/updates/sample', json: { lead_id: w.a.leadId } }),
    expect: { 'signed out': { status: 401 }, 'agent A': ok(200), 'agent B': { status: 404 }, admin: { status: 404 } },
  },
  // Seller updates (/dashboard/updates): each caller's own sellers; A's seller is made pausable (or
  // resumable) first, and is nobody else's to change (404).
  'GET /api/dashboard/updates': { request: () => ({ path: '/api/dashboard/updates' }), expect: signedIn(200, secret) },
  'PUT /api/dashboard/updates/settings': {
    request: () => ({ path: '/api/dashboard/updates/settings', json: { enabled: true } }),
    expect: signedIn(200),
  },
  'POST /api/dashboard/updates/:id/pause': {
    request: async (w, _caller, suite) => {
      await suite.db.query(`UPDATE seller_updates SET state = 'subscribed', confirmed_at = now() WHERE lead_id = $1`, [
        w.a.leadId,
      ]);
      return { path: `/api/dashboard/updates/${w.a.leadId}/pause` };
    },
    expect: ownSeller,
  },
  'POST /api/dashboard/updates/:id/resume': {
    request: async (w, _caller, suite) => {
      await suite.db.query(`UPDATE seller_updates SET state = 'paused', confirmed_at = now() WHERE lead_id = $1`, [
        w.a.leadId,
      ]);
      return { path: `/api/dashboard/updates/${w.a.leadId}/resume` };
    },
    expect: ownSeller,
  },
};
