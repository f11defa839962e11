/**
 * The OpenAPI document (src/app/openapi.server.ts) against the app: served at /api/openapi.json,
 * a valid OpenAPI 3.1 document whose every schema is valid JSON Schema 2020-12 (checked by Ajv, not
 * by zod, which made them), describing exactly the routes the app registers and the access table
 * lists, and whose request bodies accept and refuse what the routes accept and refuse.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { openApiDocument } from '../../src/app/openapi.server.ts';
import { apiOperations } from '../../src/app/api-groups.server.ts';
import { ROUTE_ACCESS } from '../../src/app/route-access.ts';
import { apiErrorSchema, expectJson } from '../support/api-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { clientAs, signupBody, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { createEstimate } from '../support/estimates.ts';
import { createAgent } from '../support/fixtures.ts';
import { registeredRoutes } from '../support/registered-routes.ts';
import { sampleEventPayload } from '../../src/features/webhooks/public/webhook-events.server.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/features/webhooks/public/webhooks.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const jsonSchema = z.record(z.string(), z.unknown());

/** The parts of OpenAPI 3.1 the document uses, as the specification defines them. */
// A Media Type Object has no `description` in OpenAPI 3.1: a media type's words are on its schema.
const mediaSchema = z.strictObject({ schema: jsonSchema });
const responseSchema = z.strictObject({
  description: z.string().min(1),
  headers: z.record(z.string(), z.strictObject({ description: z.string().min(1), schema: jsonSchema })).optional(),
  content: z.record(z.string().regex(/^[\w.+-]+\/[\w.+*-]+$/), mediaSchema).optional(),
});
const parameterSchema = z.strictObject({
  name: z.string().min(1),
  in: z.enum(['path', 'query']),
  required: z.boolean(),
  description: z.string().optional(),
  schema: jsonSchema,
});
const operationSchema = z.strictObject({
  operationId: z.string().regex(/^[A-Za-z][\w]*$/),
  summary: z.string().min(1),
  description: z.string(),
  tags: z.array(z.string()).length(1),
  'x-access': z.enum(['public', 'agent', 'admin']),
  security: z.array(z.never()).optional(),
  parameters: z.array(parameterSchema),
  requestBody: z.strictObject({ required: z.literal(true), content: z.record(z.string(), mediaSchema) }).optional(),
  responses: z.record(z.string().regex(/^[1-5]\d\d$/), responseSchema),
});
/** A webhook we send (OpenAPI 3.1 `webhooks`): its Standard Webhooks headers and its JSON body. */
const webhookOperationSchema = z.strictObject({
  operationId: z.string().regex(/^[A-Za-z][\w]*$/),
  summary: z.string().min(1),
  description: z.string().min(1),
  tags: z.array(z.string()).length(1),
  security: z.array(z.never()),
  parameters: z.array(parameterSchema.extend({ in: z.literal('header'), required: z.literal(true) })).length(3),
  requestBody: z.strictObject({
    required: z.literal(true),
    content: z.strictObject({ 'application/json': mediaSchema }),
  }),
  responses: z.record(z.string().regex(/^[1-5](\d\d|XX)$/), responseSchema),
});
const documentSchema = z.strictObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.strictObject({ title: z.string().min(1), version: z.string().min(1), description: z.string() }),
  servers: z.array(z.strictObject({ url: z.string() })),
  tags: z.array(z.strictObject({ name: z.string() })),
  paths: z.record(z.string().regex(/^\/[\w./{}-]*$/), z.partialRecord(z.enum(METHODS), operationSchema)),
  webhooks: z.record(z.string(), z.strictObject({ post: webhookOperationSchema })),
  components: z.strictObject({
    schemas: z.record(z.string(), jsonSchema),
    securitySchemes: z.record(
      z.string(),
      z.strictObject({ type: z.literal('apiKey'), in: z.literal('cookie'), name: z.string() }),
    ),
  }),
  security: z.array(z.record(z.string(), z.array(z.string()))),
});

type OpenApi = z.output<typeof documentSchema>;
type OperationObject = z.output<typeof operationSchema>;

const document: OpenApi = documentSchema.parse(openApiDocument(await apiOperations()));

/** Every operation as `METHOD /api/path/:param`, the way Hono and ROUTE_ACCESS name routes. */
function operations(doc: OpenApi): [string, OperationObject][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method): [string, OperationObject][] => {
      const operation = item[method];
      const route = path.replace(/\{(\w+)\}/g, ':$1');
      return operation ? [[`${method.toUpperCase()} ${route}`, operation]] : [];
    }),
  );
}

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: 'openapi.json', components: document.components });

/** The document's JSON body schema of `key` (one media type), compiled by Ajv. */
function bodyValidator(key: string) {
  const operation = operations(document).find(([name]) => name === key)?.[1];
  const schema = operation?.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`${key} documents no JSON body`);
  return ajv.compile(schema);
}

/** The documented success status of `key`, and a validator of its JSON answer when one is documented. */
function successOf(key: string) {
  const operation = operations(document).find(([name]) => name === key)?.[1];
  const [status = '', response] = Object.entries(operation?.responses ?? {}).find(([code]) => Number(code) < 400) ?? [];
  const schema = response?.content?.['application/json']?.schema;
  return { status: Number(status), validate: schema ? ajv.compile(schema) : undefined };
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 whose every schema is valid JSON Schema 2020-12', () => {
    const ids = operations(document).map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, operation] of operations(document)) {
      const schemas = [
        ...operation.parameters.map((parameter) => parameter.schema),
        ...Object.values(operation.requestBody?.content ?? {}).map((media) => media.schema),
        ...Object.values(operation.responses).flatMap((response) =>
          Object.values(response.content ?? {}).map((media) => media.schema),
        ),
      ];
      for (const schema of schemas) {
        expect(ajv.validateSchema(schema), `${key}: ${ajv.errorsText()}`).toBe(true);
      }
      // A path's {param}s are exactly its path parameters.
      const inPath = [...key.matchAll(/:(\w+)/g)].map((match) => match[1]);
      const declared = operation.parameters.filter((parameter) => parameter.in === 'path').map(({ name }) => name);
      expect(declared.sort(), key).toEqual(inPath.sort());
    }
  });

  it('documents the error shape for every error status, 401 for every signed-in route, 403 for admin ones, 503 wherever the database is read', () => {
    const errorShape = document.components.schemas.Error;
    const ajvError = ajv.compile(errorShape ?? {});
    expect(ajvError({ success: false, error: 'Not found', fields: {} })).toBe(true);
    expect(ajvError({ success: true })).toBe(false);
    for (const [key, operation] of operations(document)) {
      const statuses = Object.keys(operation.responses).map(Number);
      expect(
        statuses.filter((status) => status < 400),
        key,
      ).toHaveLength(1);
      for (const status of statuses.filter((code) => code >= 400)) {
        expect(operation.responses[status]?.content?.['application/json']?.schema, `${key} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
      if (operation['x-access'] !== 'public') expect(statuses, key).toContain(401);
      if (operation['x-access'] === 'admin') expect(statuses, key).toContain(403);
      if (operation.requestBody) expect(statuses, key).toEqual(expect.arrayContaining([400, 413]));
      // Every answer but the document itself reads the database, so may say it cannot be reached.
      if (key === 'GET /api/openapi.json') expect(statuses, key).not.toContain(503);
      else expect(statuses, key).toContain(503);
    }
  });
});

describe("the OpenAPI document's webhooks", () => {
  it('documents every event we send with its three signature headers and a body schema our events meet', () => {
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const operation = document.webhooks[type]?.post;
      expect(operation?.parameters.map((parameter) => parameter.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      const validate = ajv.compile(operation?.requestBody.content['application/json'].schema ?? {});
      const sample = sampleEventPayload(type, 'https://homes.example.com');
      expect(validate(sample), JSON.stringify(validate.errors)).toBe(true);
      // The schema is the event's own: another event's body does not pass as this one.
      const other = sampleEventPayload(type === 'lead.created' ? 'seller.active' : 'lead.created', 'https://x.example');
      expect(validate(other)).toBe(false);
    }
  });
});

describe.each(BACKENDS)('the OpenAPI document over HTTP on %s', (backend) => {
  const suite = useAuthSuite(backend, 'openapi');

  it('describes exactly the routes the app registers and the access table lists, with their access', async () => {
    const documented = operations(document)
      .map(([key]) => key)
      .sort();
    expect(documented).toEqual(await registeredRoutes(suite.db));
    expect(documented).toEqual(Object.keys(ROUTE_ACCESS).sort());
    for (const [key, operation] of operations(document)) expect(operation['x-access'], key).toBe(ROUTE_ACCESS[key]);
  });

  it('is served at GET /api/openapi.json to anyone', async () => {
    const response = await suite.client().get('/api/openapi.json');
    expect(await expectJson(response, 200, jsonSchema)).toEqual(openApiDocument(await apiOperations()));
  });

  /** A client allowed to call `key`: signed out for public routes, an agent, or an admin. */
  async function callerOf(key: string): Promise<Client> {
    const access = ROUTE_ACCESS[key];
    if (access === 'public') return suite.client();
    const agent = await createAgent(suite.db, { is_admin: access === 'admin' });
    return clientAs(suite, agent.id);
  }

  // Not the market-data upload, whose JSON is a file sent as it is (no schema).
  const jsonBodies = operations(document).filter(([, operation]) => {
    const schema = operation.requestBody?.content['application/json']?.schema;
    return schema !== undefined && schema.format !== 'binary';
  });

  it.each(jsonBodies.map(([key]) => key))(
    '%s: the documented body and the route agree on {} and on garbage',
    async (key) => {
      const validate = bodyValidator(key);
      const [method = '', pattern = ''] = key.split(' ');
      const path = pattern.replace(/:\w+/g, '1');
      const client = await callerOf(key);
      for (const body of [{}, { success: [1, 2, 3], sale_price: { nested: true }, email: 42 }]) {
        const response = await client.send(method, path, body);
        const text = await response.text();
        const refused = response.status === 400;
        expect(validate(body), `${key} ${JSON.stringify(body)} answered ${response.status} ${text}`).toBe(!refused);
        if (refused) apiErrorSchema.parse(JSON.parse(text));
      }
    },
  );

  /** Valid and invalid bodies of a few routes: the document's schema and the route agree on each. */
  const cases: { key: string; valid: () => Promise<Record<string, unknown>>; invalid: Record<string, unknown>[] }[] = [
    {
      key: 'POST /api/estimates',
      valid: () => Promise.resolve({ agent_slug: 'alexmorgan', sale_price: 650000, mortgage_payoff: 300000 }),
      invalid: [
        { agent_slug: 'alexmorgan' },
        { agent_slug: '', sale_price: 650000 },
        { agent_slug: 'alexmorgan', sale_price: 650000, details: { liens: 'none' } },
        { agent_slug: 'alexmorgan', sale_price: 650000, details: { unknown_field: 1 } },
      ],
    },
    {
      key: 'POST /api/offers',
      valid: async () => ({
        estimate_uuid: (await createEstimate(suite.api)).uuid,
        offers: [
          { price: 700000, concessions: 0, closing_date: '2027-05-01', financing: 'cash' },
          { price: 710000, concessions: 0, closing_date: '2027-06-01', financing: 'conventional' },
        ],
      }),
      invalid: [
        { offers: [] },
        { estimate_uuid: 'not-a-uuid', offers: [{ price: 1 }, { price: 2 }] },
        { estimate_uuid: '00000000-0000-4000-8000-000000000000', offers: [{ price: 700000 }], extra: 1 },
      ],
    },
    {
      key: 'POST /api/auth/signup',
      valid: () => Promise.resolve(signupBody()),
      invalid: [{ ...signupBody(), email: 42 }, { ...signupBody(), password: undefined }, { email: 'a@example.com' }],
    },
    {
      key: 'PATCH /api/agents/me/settings',
      valid: () =>
        Promise.resolve({
          default_attorney_fee: 900,
          default_recording_fee: 200,
          transfer_tax_rate_per_1000: 4,
          default_commission_percent: 5.5,
        }),
      invalid: [{ default_attorney_fee: 'nine hundred' }, { default_listing_percent: 'half' }],
    },
    {
      key: 'PUT /api/seo/settings',
      valid: () =>
        Promise.resolve({
          seo_title: 'Long Island net proceeds',
          seo_description: 'What a seller walks away with',
          og_title: null,
          og_description: null,
          og_url: null,
          twitter_card: 'summary',
          seo_keywords: null,
        }),
      invalid: [{ seo_title: 'Only a title' }, { seo_title: 'A', seo_description: 'B', twitter_card: 'poster' }],
    },
  ];

  it.each(cases)('$key: the document and the route agree on a valid body and on invalid ones', async (testCase) => {
    const validate = bodyValidator(testCase.key);
    const [method = '', path = ''] = testCase.key.split(' ');
    const client = await callerOf(testCase.key);
    const valid = await testCase.valid();
    expect(validate(valid), JSON.stringify(validate.errors)).toBe(true);
    const accepted = await client.send(method, path, valid);
    const answer = await accepted.text();
    // The answer is the documented success, in the documented shape where one is given.
    const success = successOf(testCase.key);
    expect(accepted.status, answer).toBe(success.status);
    if (success.validate)
      expect(success.validate(JSON.parse(answer)), JSON.stringify(success.validate.errors)).toBe(true);
    for (const body of testCase.invalid) {
      expect(validate(body), JSON.stringify(body)).toBe(false);
      const refused = await client.send(method, path, body);
      expect(refused.status, `${JSON.stringify(body)}: ${await refused.clone().text()}`).toBe(400);
      apiErrorSchema.parse(await refused.json());
    }
  });
});
