/**
 * Database round-trip budgets of each endpoint, and what a visitor sees when the database fails.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/platform/db.ts';
import { BACKENDS, openTestDatabase } from '../support/backends.ts';
import { expectError, expectJson, useApiSuite } from '../support/api-suite.ts';
import { estimateResponse, publicAgentResponse } from '../support/schemas.ts';
import { createAgent } from '../support/fixtures.ts';
import { startApi } from '../support/http.ts';

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

describe.each(BACKENDS)('round trips on %s', (backend) => {
  const suite = useApiSuite(backend, 'roundtrips');

  /** Round trips the database saw while `call` ran. */
  async function roundTripsOf(call: () => Promise<Response>, status: number): Promise<number> {
    const before = suite.db.roundTrips;
    const response = await call();
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return suite.db.roundTrips - before;
  }

  const estimateBody = { agent_slug: 'alexmorgan', sale_price: '780,200', mortgage_payoff: 450000 };

  it('POST /api/estimates makes exactly 1', async () => {
    expect(await roundTripsOf(() => suite.api.postJson('/api/estimates', estimateBody), 201)).toBe(1);
  });

  it('POST /api/estimates for an unknown agent makes 1 and answers 404', async () => {
    expect(
      await roundTripsOf(
        () => suite.api.postJson('/api/estimates', { ...estimateBody, agent_slug: 'nosuchagent999' }),
        404,
      ),
    ).toBe(1);
  });

  it('GET /api/estimates/{uuid} makes exactly 1', async () => {
    const created = await expectJson(await suite.api.postJson('/api/estimates', estimateBody), 201, estimateResponse);
    expect(await roundTripsOf(() => suite.api.fetch(`/api/estimates/${created.estimate.uuid}`), 200)).toBe(1);
  });

  it('GET /api/agents/public/{slug} makes exactly 1', async () => {
    const agent = await createAgent(suite.db);
    expect(await roundTripsOf(() => suite.api.fetch(`/api/agents/public/${agent.slug}`), 200)).toBe(1);
    expect(await roundTripsOf(() => suite.api.fetch('/api/agents/public/nosuchagent999'), 404)).toBe(1);
  });

  it('GET /api/global/settings and /api/showcase/settings make exactly 1', async () => {
    expect(await roundTripsOf(() => suite.api.fetch('/api/global/settings'), 200)).toBe(1);
    expect(await roundTripsOf(() => suite.api.fetch('/api/showcase/settings'), 200)).toBe(1);
  });

  // The agent (and estimate) the e-mails need, then the lead with its queued e-mails in one statement.
  it('POST /api/leads makes exactly 2 for each form', async () => {
    const agent = await createAgent(suite.db);
    const created = await expectJson(
      await suite.api.postJson('/api/estimates', { ...estimateBody, agent_slug: agent.slug }),
      201,
      estimateResponse,
    );
    const uuid = created.estimate.uuid;
    const forms = [
      {
        agent_slug: agent.slug,
        firstName: 'Dana',
        lastName: 'Lopez',
        phone: '5165550123',
        email: 'dana@example.com',
        consent_marketing: true,
      },
      {
        agent_id: agent.id,
        first_name: 'Chris',
        last_name: 'Nguyen',
        email: 'chris@example.com',
        phone: '6315550199',
        consent_marketing: true,
        estimate_uuid: uuid,
        email_body: 'Net: $279,341.00',
      },
      { name: 'Robin Baker', email: 'robin@example.com', consent_marketing: true, estimate_uuid: uuid },
    ];
    for (const form of forms) {
      expect(await roundTripsOf(() => suite.api.postJson('/api/leads', form), 201)).toBe(2);
    }
  });

  it('rejected requests make none', async () => {
    const post = (path: string, body: string, contentType = 'application/json') =>
      suite.api.fetch(path, { method: 'POST', headers: { 'content-type': contentType }, body });
    const rejected: [() => Promise<Response>, number][] = [
      [() => suite.api.postJson('/api/estimates', { ...estimateBody, sale_price: 0 }), 400],
      [() => suite.api.postJson('/api/estimates', { ...estimateBody, recipient_name: 5 }), 400],
      [() => suite.api.postJson('/api/leads', { agent_slug: 'alexmorgan', firstName: 'Dana' }), 400],
      [() => suite.api.postJson('/api/leads', { agent_id: 1, first_name: 'Chris', email: 'nope' }), 400],
      [() => post('/api/estimates', '{"sale_price":'), 400],
      [() => post('/api/leads', '[]'), 400],
      [() => post('/api/estimates', '{}', 'text/plain'), 415],
      [() => post('/api/leads', 'x'.repeat(70 * 1024)), 413],
      [() => suite.api.fetch('/api/estimates', { method: 'PUT' }), 405],
      [() => suite.api.fetch('/api/agents/public/Not-Valid'), 400],
      [() => suite.api.fetch('/api/estimates/not-a-uuid'), 400],
      [() => suite.api.fetch('/api/no-such-endpoint'), 404],
    ];
    for (const [call, status] of rejected) {
      expect(await roundTripsOf(call, status)).toBe(0);
    }
  });
});

/** A Db whose every call fails the way a lost connection does, with internals in the message. */
function failingDb(kind: Db['kind']): Db {
  const fail = (): Promise<never> =>
    Promise.reject(new Error('connect ECONNREFUSED 10.1.2.3:5432 (user "neondb_owner", password "hunter2")'));
  return { kind, roundTrips: 0, query: fail, exec: fail, transaction: fail, close: async () => {} };
}

describe.each(BACKENDS)('database failures on %s', (backend) => {
  const requests: [string, string, unknown?][] = [
    ['GET', '/api/global/settings'],
    ['GET', '/api/showcase/settings'],
    ['GET', '/api/agents/public/alexmorgan'],
    ['GET', '/api/estimates/8b0c7f4e-3a1d-4c55-9e0f-2b6a7d9c1e42'],
    ['POST', '/api/estimates', { agent_slug: 'alexmorgan', sale_price: 500000, mortgage_payoff: 0 }],
    [
      'POST',
      '/api/leads',
      {
        agent_slug: 'alexmorgan',
        firstName: 'Dana',
        lastName: 'Lopez',
        phone: '5165550123',
        email: 'dana@example.com',
        consent_marketing: true,
      },
    ],
  ];

  const send = (
    api: { fetch: (path: string, init?: RequestInit) => Promise<Response> },
    method: string,
    path: string,
    body?: unknown,
  ) =>
    api.fetch(
      path,
      body === undefined
        ? { method }
        : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );

  async function expectGeneric500(response: Response): Promise<void> {
    const text = await response.clone().text();
    const body = await expectError(response, 500, GENERIC_500);
    expect(body.fields).toEqual({});
    for (const secret of ['ECONNREFUSED', '10.1.2.3', 'hunter2', 'neondb_owner', 'Error', 'stack', ' at ', 'pool']) {
      expect(text).not.toContain(secret);
    }
  }

  it('a query that throws answers 500 without internals and is logged', async () => {
    const logged: { error: unknown; method: string; path: string }[] = [];
    const api = await startApi({
      db: failingDb(backend === 'pglite' ? 'pglite' : 'neon'),
      logError: (error, request) => logged.push({ error, method: request.method, path: new URL(request.url).pathname }),
    });
    try {
      for (const [method, path, body] of requests) {
        logged.length = 0;
        await expectGeneric500(await send(api, method, path, body));
        expect(logged).toHaveLength(1);
        expect(logged[0]).toMatchObject({ method, path });
        const [entry] = logged;
        expect(entry?.error).toBeInstanceOf(Error);
        expect(entry?.error instanceof Error ? entry.error.message : '').toContain('ECONNREFUSED');
      }
    } finally {
      await api.close();
    }
  });

  it('a closed database answers 500 without internals and is logged', async () => {
    const test = await openTestDatabase(backend, 'closed');
    const logged: unknown[] = [];
    const api = await startApi({ db: test.db, logError: (error) => logged.push(error) });
    try {
      await test.db.close();
      for (const [method, path, body] of requests) {
        logged.length = 0;
        const response = await send(api, method, path, body);
        const text = await response.clone().text();
        await expectError(response, 500, GENERIC_500);
        expect(JSON.parse(text)).toEqual({ success: false, error: GENERIC_500, fields: {} });
        expect(logged).toHaveLength(1);
        expect(logged[0]).toBeInstanceOf(Error);
      }
    } finally {
      await api.close();
      await test.close();
    }
  });

  it('a failure does not stop the next request from being served', async () => {
    let broken = true;
    const test = await openTestDatabase(backend, 'flaky');
    const flaky: Db = {
      kind: test.db.kind,
      get roundTrips() {
        return test.db.roundTrips;
      },
      query: (text, params) =>
        broken ? Promise.reject(new Error('terminating connection')) : test.db.query(text, params),
      exec: (script) => test.db.exec(script),
      transaction: (work) => test.db.transaction(work),
      close: () => test.db.close(),
    };
    const logged: unknown[] = [];
    const api = await startApi({ db: flaky, logError: (error) => logged.push(error) });
    try {
      await expectGeneric500(await api.fetch('/api/agents/public/alexmorgan'));
      broken = false;
      const body = await expectJson(await api.fetch('/api/agents/public/alexmorgan'), 200, publicAgentResponse);
      expect(body.success).toBe(true);
      expect(logged).toHaveLength(1);
    } finally {
      await api.close();
      await test.close();
    }
  });
});
