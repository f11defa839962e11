/**
 * The API over real HTTP, on PGlite and on PostgreSQL (through the Neon driver): site settings,
 * public agent pages, and the contract every endpoint keeps (JSON bodies, methods, sizes, errors).
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import {
  estimateResponse,
  globalSettingsResponse,
  publicAgentResponse,
  showcaseSettingsResponse,
} from '../support/schemas.ts';
import { createAgent, setAgentSettings } from '../support/fixtures.ts';
import { rawRequest } from '../support/http.ts';

const FEATURED_SLUG = 'alexmorgan';

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(allKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...allKeys(inner)]);
  }
  return [];
}

describe.each(BACKENDS)('API on %s', (backend) => {
  const suite = useApiSuite(backend, 'api');

  describe('GET /api/global/settings', () => {
    it('answers the seeded logo settings', async () => {
      const response = await suite.api.fetch('/api/global/settings');
      expect(await expectJson(response, 200, globalSettingsResponse)).toEqual({
        success: true,
        settings: {
          website_logo: null,
          website_logo_scale: 1,
          website_logo_type: 'png',
          town_page_logo: null,
          town_page_logo_type: null,
          show_town_page_logo: false,
        },
      });
      // Kept by the CDN, never by the browser (decision 0020; tests/integration/edge-cache.test.ts).
      expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });

  describe('GET /api/showcase/settings', () => {
    it('answers the seeded demo showcase', async () => {
      const response = await suite.api.fetch('/api/showcase/settings');
      expect(await expectJson(response, 200, showcaseSettingsResponse)).toEqual({
        success: true,
        settings: {
          showcase_property_price: 780200,
          showcase_property_address: '24 Harbor View Lane, Huntington, NY 11743',
          showcase_property_beds: 3,
          showcase_property_baths: 2,
          showcase_property_sqft: 2543,
          showcase_images: '',
        },
      });
    });
  });

  describe('GET /api/agents/public/{slug}', () => {
    it('answers the featured agent, the system settings and a complete profile', async () => {
      const response = await suite.api.fetch(`/api/agents/public/${FEATURED_SLUG}`);
      const body = await expectJson(response, 200, publicAgentResponse);
      expect(body).toEqual({
        success: true,
        agent: {
          id: suite.test.featuredAgent.id,
          slug: 'alexmorgan',
          first_name: 'Alex',
          last_name: 'Morgan',
          email: 'alex.morgan@example.com',
          phone: '6315550142',
          brokerage: 'Harbor Point Realty (demo)',
          professional_title: 'Licensed Real Estate Salesperson',
          license_number: '10401234567',
          website: 'https://example.com',
          brokerage_street: '100 Main Street',
          brokerage_city: 'Huntington',
          brokerage_state: 'NY',
          brokerage_zip: '11743',
          show_profile_photo: false,
          show_logo: false,
          profile_photo: null,
          logo: null,
        },
        settings: {
          default_attorney_fee: 750,
          default_recording_fee: 175,
          transfer_tax_rate_per_1000: 4,
          default_commission_percent: 6,
        },
        profile_complete: true,
      });
    });

    it('never reveals a password hash', async () => {
      const agent = await createAgent(suite.db, { password_hash: 'scrypt$U0FMVFNBTFQ$SECRETHASHVALUE' });
      const response = await suite.api.fetch(`/api/agents/public/${agent.slug}`);
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(text).not.toContain('SECRETHASHVALUE');
      const keys = allKeys(JSON.parse(text));
      expect(keys).not.toContain('password');
      expect(keys).not.toContain('password_hash');
      expect(keys.filter((key) => /hash|password/i.test(key))).toEqual([]);
      expect(keys).not.toContain('is_admin');
      expect(keys).not.toContain('status');
    });

    it('answers 404 "Agent not found" for a slug nobody has', async () => {
      const body = await expectError(
        await suite.api.fetch('/api/agents/public/nosuchagent999'),
        404,
        'Agent not found',
      );
      expect(body.fields).toEqual({});
    });

    it.each([
      ['uppercase letters', 'AlexMorgan'],
      ['a hyphen', 'alex-morgan'],
      ['an underscore', 'alex_morgan'],
      ['a dot', 'alex.morgan'],
      ['a space', 'alex%20morgan'],
      ['an apostrophe (SQL)', "alex'%20OR%20'1'='1"],
    ])('answers 400 for a slug with %s', async (_label, slug) => {
      const body = await expectError(
        await suite.api.fetch(`/api/agents/public/${slug}`),
        400,
        'Agent slug can only contain lowercase letters and numbers',
      );
      expect(body.fields).toEqual({ slug: 'Agent slug can only contain lowercase letters and numbers' });
    });

    it('answers 400 for a slug over 64 characters', async () => {
      const body = await expectError(
        await suite.api.fetch(`/api/agents/public/${'a'.repeat(65)}`),
        400,
        'Agent slug is too long',
      );
      expect(body.fields).toEqual({ slug: 'Agent slug is too long' });
    });

    it('answers 404 for an agent whose status is pending', async () => {
      const agent = await createAgent(suite.db, { status: 'pending' });
      await expectError(await suite.api.fetch(`/api/agents/public/${agent.slug}`), 404, 'Agent not found');
    });

    it('answers 410 "This calculator is not available" for an inactive agent', async () => {
      const agent = await createAgent(suite.db, { status: 'inactive' });
      await expectError(
        await suite.api.fetch(`/api/agents/public/${agent.slug}`),
        410,
        'This calculator is not available',
      );
    });

    it.each([
      ['brokerage is missing', { brokerage: null }],
      ['brokerage is blank', { brokerage: '   ' }],
      ['professional title is missing', { professional_title: null }],
    ])('reports profile_complete false when the %s', async (_label, missing) => {
      const agent = await createAgent(suite.db, missing);
      const body = await expectJson(
        await suite.api.fetch(`/api/agents/public/${agent.slug}`),
        200,
        publicAgentResponse,
      );
      expect(body.success).toBe(true);
      expect(body.profile_complete).toBe(false);
    });

    it('answers an agent without settings with the system defaults and a complete profile', async () => {
      const agent = await createAgent(suite.db);
      const body = await expectJson(
        await suite.api.fetch(`/api/agents/public/${agent.slug}`),
        200,
        publicAgentResponse,
      );
      expect(body.agent.id).toBe(agent.id);
      expect(body.settings).toEqual({
        default_attorney_fee: 750,
        default_recording_fee: 175,
        transfer_tax_rate_per_1000: 4,
        default_commission_percent: 6,
      });
      expect(body.profile_complete).toBe(true);
    });

    it("answers the agent's own settings when they have them", async () => {
      const agent = await createAgent(suite.db);
      await setAgentSettings(suite.db, agent.id, {
        attorneyFeeCents: 1250_50,
        recordingFeeCents: 200_00,
        transferTaxRatePer1000: 4.5,
        commissionPercent: 5.25,
      });
      const body = await expectJson(
        await suite.api.fetch(`/api/agents/public/${agent.slug}`),
        200,
        publicAgentResponse,
      );
      expect(body.settings).toEqual({
        default_attorney_fee: 1250.5,
        default_recording_fee: 200,
        transfer_tax_rate_per_1000: 4.5,
        default_commission_percent: 5.25,
      });
    });

    it('falls back to the system default for each setting the agent left empty', async () => {
      const agent = await createAgent(suite.db);
      await setAgentSettings(suite.db, agent.id, {
        attorneyFeeCents: null,
        recordingFeeCents: 99_00,
        transferTaxRatePer1000: null,
        commissionPercent: 5,
      });
      const body = await expectJson(
        await suite.api.fetch(`/api/agents/public/${agent.slug}`),
        200,
        publicAgentResponse,
      );
      expect(body.settings).toEqual({
        default_attorney_fee: 750,
        default_recording_fee: 99,
        transfer_tax_rate_per_1000: 4,
        default_commission_percent: 5,
      });
    });
  });

  describe('request bodies of POST endpoints', () => {
    const POST_PATHS = ['/api/estimates', '/api/leads'];
    const sendRaw = (path: string, body: string, contentType = 'application/json') =>
      suite.api.fetch(path, { method: 'POST', headers: { 'content-type': contentType }, body });

    it.each(POST_PATHS)('%s: malformed JSON answers 400 "The request body is not valid JSON"', async (path) => {
      for (const text of ['{"sale_price": ', '{sale_price: 1}', "{'a': 1}", '', 'undefined']) {
        const body = await expectError(await sendRaw(path, text), 400, 'The request body is not valid JSON');
        expect(body.fields).toEqual({});
      }
    });

    it.each(POST_PATHS)('%s: JSON that is not an object answers 400', async (path) => {
      for (const text of ['[]', '[{"agent_slug":"alexmorgan"}]', '"alexmorgan"', '42', 'true', 'null']) {
        const body = await expectError(await sendRaw(path, text), 400, 'The request body must be a JSON object');
        expect(body.fields).toEqual({});
      }
    });

    it.each(POST_PATHS)('%s: a text/plain body answers 415', async (path) => {
      await expectError(
        await sendRaw(path, '{"agent_slug":"alexmorgan"}', 'text/plain'),
        415,
        'Send the request body as JSON (Content-Type: application/json)',
      );
      await expectError(await sendRaw(path, 'a=1', 'application/x-www-form-urlencoded'), 415);
    });

    it.each(POST_PATHS)('%s: a body without a content type answers 415', async (path) => {
      const response = await rawRequest(suite.api.origin, path, {
        method: 'POST',
        headers: { 'content-length': '27' },
        chunks: ['{"agent_slug":"alexmorgan"}'],
      });
      expect(response.status).toBe(415);
      expect(JSON.parse(response.body)).toEqual({
        success: false,
        error: 'Send the request body as JSON (Content-Type: application/json)',
        fields: {},
      });
    });

    it.each(POST_PATHS)('%s: accepts application/json with a charset', async (path) => {
      // The body is read and validated (400 about fields), not refused for its content type.
      const response = await sendRaw(path, '{}', 'application/json; charset=utf-8');
      const body = await expectError(response, 400);
      expect(Object.keys(body.fields).length).toBeGreaterThan(0);
    });

    it.each(POST_PATHS)('%s: a body over 64 KB answers 413', async (path) => {
      const big = JSON.stringify({ agent_slug: FEATURED_SLUG, sale_price: 1, padding: 'x'.repeat(64 * 1024) });
      const body = await expectError(await sendRaw(path, big), 413, 'The request body is larger than 64 KB');
      expect(body.fields).toEqual({});
    });

    it.each(POST_PATHS)('%s: a chunked body over 64 KB without Content-Length answers 413', async (path) => {
      const piece = 'x'.repeat(16 * 1024);
      const response = await rawRequest(suite.api.origin, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: ['{"padding":"', piece, piece, piece, piece, piece, '"}'],
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toEqual({
        success: false,
        error: 'The request body is larger than 64 KB',
        fields: {},
      });
    });

    it('a body of exactly 64 KB is accepted', async () => {
      const base = JSON.stringify({ agent_slug: FEATURED_SLUG, sale_price: 500000, padding: '' });
      const exact = JSON.stringify({
        agent_slug: FEATURED_SLUG,
        sale_price: 500000,
        padding: 'x'.repeat(64 * 1024 - Buffer.byteLength(base)),
      });
      expect(Buffer.byteLength(exact)).toBe(64 * 1024);
      const body = await expectJson(await sendRaw('/api/estimates', exact), 201, estimateResponse);
      expect(body.success).toBe(true);
    });
  });

  describe('methods and paths', () => {
    it.each([
      ['PUT', '/api/estimates', 'POST'],
      ['DELETE', '/api/estimates', 'POST'],
      ['GET', '/api/estimates', 'POST'],
      ['PATCH', '/api/estimates', 'POST'],
    ])('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
      const response = await suite.api.fetch(path, { method });
      expect(response.headers.get('allow')).toBe(allow);
      const body = await expectError(response, 405, `${method} is not allowed here; use ${allow}`);
      expect(body.fields).toEqual({});
    });

    // POST is the public lead form; GET and DELETE are the agent's list and Clear All.
    it.each(['PUT', 'PATCH'])('%s /api/leads answers 405 naming the three methods it has', async (method) => {
      const response = await suite.api.fetch('/api/leads', { method });
      expect(response.headers.get('allow')).toBe('GET, DELETE, POST, HEAD');
      await expectError(response, 405, `${method} is not allowed here; use GET or DELETE or POST`);
    });

    it.each([
      ['POST', '/api/global/settings'],
      ['POST', '/api/showcase/settings'],
      ['POST', `/api/agents/public/${FEATURED_SLUG}`],
      ['POST', '/api/estimates/8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42'],
      ['PUT', '/api/global/settings'],
      ['DELETE', `/api/agents/public/${FEATURED_SLUG}`],
      ['DELETE', '/api/estimates/8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42'],
    ])('%s %s answers 405 with Allow: GET, HEAD', async (method, path) => {
      const response = await suite.api.fetch(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      await expectError(response, 405, `${method} is not allowed here; use GET`);
    });

    it('HEAD on a GET endpoint answers 200 without a body', async () => {
      const response = await suite.api.fetch('/api/global/settings', { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
    });

    it.each([
      ['GET', '/api/nothing-here'],
      ['POST', '/api/nothing-here'],
      ['GET', '/api'],
      ['GET', '/api/agents/public'],
      ['GET', `/api/agents/public/${FEATURED_SLUG}/extra`],
      ['GET', '/api/estimates/8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42/extra'],
    ])('%s %s answers 404 JSON', async (method, path) => {
      const body = await expectError(await suite.api.fetch(path, { method }), 404, 'Not found');
      expect(body.fields).toEqual({});
    });
  });
});
