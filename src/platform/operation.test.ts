import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { errorResponse, HttpError } from './http.ts';
import { apiGroup, byPath, comparePaths, ok } from './operation.ts';

describe('comparePaths', () => {
  it('puts a static segment before a parameter at the first place two paths differ', () => {
    const paths = ['/api/estimates/:uuid', '/api/estimates/reverse', '/api/images/:file', '/api/images/list'];
    expect([...paths].sort(comparePaths)).toEqual([
      '/api/estimates/reverse',
      '/api/estimates/:uuid',
      '/api/images/list',
      '/api/images/:file',
    ]);
    expect(byPath(paths.map((path) => ({ path }))).map(([path]) => path)).toEqual([...paths].sort(comparePaths));
  });
});

describe('apiGroup', () => {
  // Declared parameter first: the static path must still answer its own requests.
  const group = apiGroup(
    (deps: { prefix: string }) => deps,
    (op) => [
      op({
        method: 'GET',
        path: '/api/things/:id',
        access: 'public',
        summary: 'A thing',
        tag: 'Things',
        params: z.object({ id: z.string().regex(/^\d+$/, 'Not a thing id') }),
        success: ok('The thing'),
        handler: (c, { prefix }, input) => c.json({ thing: `${prefix}${input.params().id}` }),
      }),
      op({
        method: 'POST',
        path: '/api/things/list',
        access: 'admin',
        summary: 'Lists things',
        tag: 'Things',
        json: z.object({ limit: z.number().int() }),
        success: ok('The things'),
        handler: async (c, { prefix }, input) => c.json({ list: prefix, limit: (await input.body()).limit }),
      }),
    ],
  );

  const request = async (method: string, path: string, body?: unknown) => {
    const app = await group.build({ prefix: 'p-' });
    app.onError((error, c) => (error instanceof HttpError ? errorResponse(c, error) : c.text('fault', 500)));
    return app.request(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  };

  it('keeps each declaration, access included, for the derived tables', () => {
    expect(group.operations.map(({ method, path, access }) => `${method} ${path} ${access}`)).toEqual([
      'GET /api/things/:id public',
      'POST /api/things/list admin',
    ]);
  });

  it('answers a static path by its own operation though a parameter path was declared first', async () => {
    const listed = await request('POST', '/api/things/list', { limit: 3 });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({ list: 'p-', limit: 3 });
    // GET of the static path is its 405, not the parameter route's "Not a thing id".
    const wrongMethod = await request('GET', '/api/things/list');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('parses inputs with the declaration’s schemas: 400 with the field’s message, typed values otherwise', async () => {
    expect(await (await request('GET', '/api/things/42')).json()).toEqual({ thing: 'p-42' });
    const bad = await request('GET', '/api/things/abc');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ success: false, error: 'Not a thing id', fields: { id: 'Not a thing id' } });
    const badBody = await request('POST', '/api/things/list', { limit: 'many' });
    expect(badBody.status).toBe(400);
  });
});
