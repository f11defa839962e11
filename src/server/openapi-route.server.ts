import { Hono } from 'hono';
import { route } from './http.ts';
import { onFirstCall } from './on-first-call.ts';

/**
 * GET /api/openapi.json, built at its first request and kept: the schemas do not change while the
 * process runs. The document's module (~150 operations, each with schemas made when it loads) is
 * imported here, not at the top: a function's cold start that serves another route does not build
 * it (decision 0026).
 */
export function openApiRoutes(): Hono {
  const app = new Hono();
  const document = onFirstCall(async () => (await import('./openapi.server.ts')).openApiDocument());
  route(app, '/openapi.json', { GET: async (c) => c.json(await document()) });
  return app;
}
