/**
 * The API's OpenAPI 3.1 document (decision 0018), served at GET /api/openapi.json and rendered for
 * integrators on /developers/api: made from the operations the groups declare (decision 0054), each
 * holding the very zod schemas its handler parses with and who may call it, so the document cannot
 * drift from what the routes accept. tests/integration/openapi.test.ts holds it against the routes
 * the app registers.
 */
import * as z from 'zod';
import { SESSION_COOKIE } from '../features/auth/public/sessions.server.ts';
import { describeStoredSize, MAX_UPLOAD_BODY_BYTES, type StoredSize } from '../ui/uploads.ts';
import { groupDigits } from '../ui/money.ts';
import type { Access, OperationDoc, RequestContent } from '../platform/operation.ts';
import { WEBHOOK_EVENTS } from '../features/webhooks/public/webhook-events.server.ts';
import { RETRY_SCHEDULE_SECONDS } from '../features/webhooks/public/webhook-deliveries.server.ts';

/** The API's one error shape (errorResponse in http.ts). */
const errorSchema = z.object({
  success: z.literal(false),
  error: z.string().describe('What went wrong, for a person'),
  fields: z.record(z.string(), z.string()).describe('Per-field messages, by field name'),
});

const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'The request is not valid (fields says which field and why)',
  401: 'Not signed in, or the session ended',
  403: 'Not allowed: an admin route, or a cross-site request carrying the session cookie',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone',
  413: 'The request body is too large',
  415: 'The request body is not of a media type this route reads',
  422: 'Valid, but cannot be met',
  429: 'Too many requests: try again after Retry-After seconds',
  502: 'An outside service did not answer',
  503: 'The database cannot be reached just now, or every worker making images and PDFs is busy: try again after Retry-After seconds (decisions 0023, 0033)',
};

const uploadLimit = `${MAX_UPLOAD_BODY_BYTES / (1024 * 1024)} MB (${groupDigits(String(MAX_UPLOAD_BODY_BYTES))} bytes)`;

/**
 * What an upload's body may weigh and, for a media type that carries images, what is kept of each
 * (decision 0027): its body's description.
 */
function uploadDescription(uploads: Readonly<Record<string, StoredSize>>, carriesImages: boolean): string {
  const limit =
    `At most ${uploadLimit} in all, every field together (an image sent as base64 counts at its base64 ` +
    'length); a larger body answers 413.';
  if (!carriesImages) return limit;
  const kept = Object.entries(uploads).map(
    ([field, size]) =>
      `\`${field}\` is stored at most ${describeStoredSize(size)} pixels (${size.output.toUpperCase()})`,
  );
  return `${limit} ${kept.join('; ')}, scaled down, never up: send no more pixels than that.`;
}

/** The error statuses an operation can answer: from its access, inputs and body, and its own. */
/** An operation's request body by media type: its JSON body (`json`) and any other it declares. */
function bodyOf(operation: OperationDoc): Readonly<Record<string, RequestContent>> | undefined {
  if (!operation.json) return operation.body;
  return { 'application/json': { schemas: [operation.json] }, ...operation.body };
}

function errorStatuses(operation: OperationDoc, access: Access): number[] {
  const statuses = new Set(operation.errors);
  const body = bodyOf(operation);
  if (access !== 'public') statuses.add(401);
  // Admins only; and the CSRF check refuses a cross-site write that carries the session cookie.
  if (access === 'admin' || operation.method !== 'GET') statuses.add(403);
  if (operation.params || operation.query || body) statuses.add(400);
  if (body) statuses.add(413);
  if (body && operation.checksType !== false) statuses.add(415);
  if (operation.readsDatabase !== false) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

/** `METHOD /api/path/:param`, as ROUTE_ACCESS and Hono's routes name an operation. */
export const operationKey = (operation: Pick<OperationDoc, 'method' | 'path'>) =>
  `${operation.method} ${operation.path}`;

type JsonSchema = Record<string, unknown>;

/** A request's schema as a client must send it (input), or an answer's as the server gives it (output). */
function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  // Refinements and transforms have no JSON Schema: the document gives what they start from. The
  // dialect ($schema) is the document's own (OpenAPI 3.1 is JSON Schema 2020-12), not repeated.
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });
  return Object.fromEntries(Object.entries(converted).filter(([key]) => key !== '$schema'));
}

/** OpenAPI parameters from a params or query object schema, one per property. */
function parameters(schema: z.core.$ZodType, where: 'path' | 'query'): JsonSchema[] {
  const object = jsonSchema(schema, 'input');
  const properties = z.record(z.string(), z.record(z.string(), z.unknown())).parse(object.properties ?? {});
  const required = new Set(z.array(z.string()).parse(object.required ?? []));
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

/** One media type of a request body: its schema (or `oneOf` several), file parts as binary strings. */
function requestContent({ schemas = [], files = [], description }: RequestContent): JsonSchema {
  const alternatives = schemas.map((schema) => jsonSchema(schema, 'input'));
  const fileProperties = Object.fromEntries(files.map((name) => [name, { type: 'string', format: 'binary' }]));
  let schema: JsonSchema;
  if (alternatives.length > 1) schema = { anyOf: alternatives };
  else if (alternatives[0]) schema = alternatives[0];
  else schema = files.length > 0 ? { type: 'object' } : { type: 'string', format: 'binary' };
  if (files.length > 0)
    schema = {
      ...schema,
      properties: { ...z.record(z.string(), z.unknown()).parse(schema.properties ?? {}), ...fileProperties },
    };
  // OpenAPI 3.1 has no `description` on a Media Type Object (validators refuse it): a media type's
  // words go on its schema, where JSON Schema allows one.
  if (!description) return { schema };
  const own = typeof schema.description === 'string' ? `${schema.description} ` : '';
  return { schema: { ...schema, description: `${own}${description}` } };
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationId = (operation: OperationDoc) =>
  `${operation.method.toLowerCase()}${operation.path
    .slice('/api'.length)
    .replace(/[^A-Za-z0-9]+(\w)?/g, (_match, next: string | undefined) => (next ?? '').toUpperCase())}`;

const ACCESS_MEANINGS: Readonly<Record<Access, string>> = {
  public: 'Anyone',
  agent: 'A signed-in agent (admins too)',
  admin: 'A signed-in admin',
};

/** The Standard Webhooks 1.0 headers every delivery carries. */
const WEBHOOK_HEADERS = [
  ['webhook-id', 'The message id (msg_…), the same on every retry of this message: take each id once'],
  ['webhook-timestamp', 'Seconds since 1970-01-01 UTC when this attempt was signed: refuse old ones (say, 5 minutes)'],
  [
    'webhook-signature',
    'Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed ' +
      "with the base64-decoded part of the endpoint's `whsec_` secret after the prefix; two during a secret's rotation",
  ],
] as const;

/**
 * The webhooks we send (OpenAPI 3.1 `webhooks`): one per event, its headers and body. Declared once
 * with the events (src/features/webhooks/public/webhook-events.server.ts), as the routes are.
 */
function webhooksSection(): JsonSchema {
  const retries = RETRY_SCHEDULE_SECONDS.map((seconds) =>
    seconds < 60 ? `${seconds} s` : seconds < 3_600 ? `${seconds / 60} min` : `${seconds / 3_600} h`,
  ).join(', ');
  return Object.fromEntries(
    WEBHOOK_EVENTS.map(({ type, summary, body }) => [
      type,
      {
        post: {
          operationId: `webhook${type.replace(/(^|\.)(\w)/g, (_match, _dot: string, letter: string) => letter.toUpperCase())}`,
          summary,
          description:
            'Sent by POST to each active endpoint that asked for this event, signed as Standard Webhooks 1.0 says ' +
            `(verify with its libraries, e.g. npm \`standardwebhooks\`). A 2xx answer takes it; 5xx, 408, 429 ` +
            `(Retry-After is obeyed), timeouts (10 s) and network errors are retried after ${retries}; 410 stops the ` +
            'endpoint; any other answer, including a redirect (never followed), fails the message.',
          tags: ['Webhooks'],
          security: [],
          parameters: WEBHOOK_HEADERS.map(([name, description]) => ({
            name,
            in: 'header',
            required: true,
            description,
            schema: { type: 'string' },
          })),
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(body, 'output') } } },
          responses: {
            '2XX': { description: 'Taken: never sent again' },
            '410': { description: 'Gone: deliveries to this endpoint stop until its owner turns it on again' },
          },
        },
      },
    ]),
  );
}

/** The whole document, made from the operations as they are declared. */
export function openApiDocument(all: readonly OperationDoc[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of all) {
    const { access } = operation;
    const body = bodyOf(operation);
    const { success } = operation;
    const responses: Record<string, JsonSchema> = {
      [success.status]: {
        description: success.description,
        ...(success.headers
          ? {
              headers: Object.fromEntries(
                Object.entries(success.headers).map(([name, description]) => [
                  name,
                  { description, schema: { type: 'string' } },
                ]),
              ),
            }
          : {}),
        ...(success.schema || success.media
          ? {
              content: {
                [success.media ?? 'application/json']: {
                  schema: success.schema ? jsonSchema(success.schema, 'output') : { type: 'string', format: 'binary' },
                },
              },
            }
          : {}),
      },
    };
    for (const status of errorStatuses(operation, access)) {
      responses[status] = {
        description:
          status === 413 && operation.uploads
            ? `The request body is larger than ${uploadLimit}, the most an upload may carry`
            : (ERROR_MEANINGS[status] ?? 'Error'),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const pathItem = (paths[openApiPath(operation.path)] ??= {});
    pathItem[operation.method.toLowerCase()] = {
      operationId: operationId(operation),
      summary: operation.summary,
      tags: [operation.tag],
      'x-access': access,
      description: `Who may call it: ${ACCESS_MEANINGS[access]}.`,
      ...(access === 'public' ? { security: [] } : {}),
      parameters: [
        ...(operation.params ? parameters(operation.params, 'path') : []),
        ...(operation.query ? parameters(operation.query, 'query') : []),
      ],
      ...(body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                Object.entries(body).map(([media, content]) => [
                  media,
                  requestContent(
                    operation.uploads
                      ? {
                          ...content,
                          description: [
                            content.description,
                            uploadDescription(operation.uploads, media !== 'application/x-www-form-urlencoded'),
                          ]
                            .filter(Boolean)
                            .join(' '),
                        }
                      : content,
                  ),
                ]),
              ),
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Long Island net-to-seller calculator API',
      version: '1',
      description:
        'Every route of the API. Errors always answer `{ "success": false, "error", "fields" }`. ' +
        'Agent and admin routes need the session cookie that POST /api/auth/login sets; writes that carry ' +
        'it must come from the site itself (same Origin).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(all.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    webhooks: webhooksSection(),
    components: {
      schemas: { Error: jsonSchema(errorSchema, 'output') },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
    },
    security: [{ session: [] }],
  };
}
