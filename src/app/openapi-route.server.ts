import { apiGroup, ok, type OperationDoc } from '../platform/operation.ts';
import { onFirstCall } from '../platform/on-first-call.ts';

/**
 * GET /api/openapi.json, built at its first request and kept: the schemas do not change while the
 * process runs. The document's module (~150 operations, each with schemas made when it loads) is
 * imported here, not at the top: a function's cold start that serves another route does not build
 * it (decision 0026).
 */
export const openApiApi = apiGroup(
  ({ operations }: { operations: () => Promise<readonly OperationDoc[]> }) => ({
    document: onFirstCall(async () => (await import('./openapi.server.ts')).openApiDocument(await operations())),
  }),
  (op) => [
    op({
      method: 'GET',
      path: '/api/openapi.json',
      access: 'public',
      summary: 'This document',
      tag: 'Documentation',
      readsDatabase: false,
      success: ok('The OpenAPI 3.1 document'),
      handler: async (c, { document }) => c.json(await document()),
    }),
  ],
);
