import type { Context, Handler, Hono } from 'hono';
import * as z from 'zod';
import { fieldErrorsOf, type FieldErrors } from '../ui/field-errors.ts';

/** Thrown by handlers; the app's one error handler turns it into the API's error shape. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503,
    message: string,
    readonly fields: FieldErrors = {},
  ) {
    super(message);
  }
}

export const MAX_JSON_BYTES = 64 * 1024;

interface Where {
  key: string;
  parent: Where | undefined;
}

/**
 * Where `input` holds U+0000 (in a string or a key), which PostgreSQL cannot store in text.
 * A loop, not recursion: a body nested thousands deep must not overflow the stack.
 */
function nulCharacterAt(input: unknown): string | undefined {
  const pathOf = (where: Where | undefined): string => {
    const keys: string[] = [];
    for (let at = where; at; at = at.parent) keys.unshift(at.key);
    return keys.length > 0 ? keys.join('.') : '_';
  };
  const pending: [unknown, Where | undefined][] = [[input, undefined]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, where] = next;
    if (typeof value === 'string' && value.includes('\u0000')) return pathOf(where);
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const here = { key, parent: where };
      if (key.includes('\u0000')) return pathOf(here);
      pending.push([child, here]);
    }
  }
  return undefined;
}

const NUL_MESSAGE = 'Remove the invisible NUL character (U+0000) from this text';

export function parseOrThrow<Schema extends z.core.$ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  // Refused before the schema: a NUL would pass every text rule and then fail the database's write.
  const nul = nulCharacterAt(input);
  if (nul !== undefined) throw new HttpError(400, NUL_MESSAGE, { [nul]: NUL_MESSAGE });
  const result = z.safeParse(schema, input);
  if (result.success) return result.data;
  const fields = fieldErrorsOf(result.error);
  throw new HttpError(400, Object.values(fields)[0] ?? 'The request is not valid', fields);
}

/** The most a route reads of a request body, and the message it answers beyond that (413). */
export interface BodyLimit {
  bytes: number;
  message: string;
}

const JSON_LIMIT: BodyLimit = {
  bytes: MAX_JSON_BYTES,
  message: `The request body is larger than ${MAX_JSON_BYTES / 1024} KB`,
};

/**
 * Reads a JSON body and parses it with `schema`: at most MAX_JSON_BYTES unless the route gives its
 * own limit (image uploads), so one route's large bodies do not raise every route's.
 */
export async function readJson<Schema extends z.core.$ZodType>(
  c: Context,
  schema: Schema,
  limit: BodyLimit = JSON_LIMIT,
): Promise<z.output<Schema>> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(contentType)) {
    throw new HttpError(415, 'Send the request body as JSON (Content-Type: application/json)');
  }
  const text = (await readBody(c, limit)).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The request body must be a JSON object');
  }
  return parseOrThrow(schema, body);
}

/**
 * The raw body, refused with 413 before it is read when Content-Length says it is over the limit,
 * and as soon as the bytes streamed pass it (a chunked body, or a Content-Length that lies).
 */
export async function readBody(c: Context, limit: BodyLimit): Promise<Buffer> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit.bytes) throw new HttpError(413, limit.message);
  if (declared !== undefined) {
    // The server reads no more than Content-Length says (the rest would be the next request), so
    // reading it whole is bounded; the check below is for a body shorter or longer than declared.
    const bytes = Buffer.from(await c.req.arrayBuffer());
    if (bytes.length > limit.bytes) throw new HttpError(413, limit.message);
    return bytes;
  }
  const body = c.req.raw.body;
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit.bytes) throw new HttpError(413, limit.message);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Any JSON object: for a route that looks at the body's keys (or keeps a part as sent) before parsing it. */
export const jsonObject = z.record(z.string(), z.unknown());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Registers handlers for `path`; any other method there answers 405 with an Allow header. */
export function route(app: Hono, path: string, handlers: Partial<Record<Method, Handler>>): void {
  const allowed = Object.keys(handlers);
  for (const [method, handler] of Object.entries(handlers)) {
    app.on(method, path, handler);
  }
  app.all(path, (c) => {
    c.header('Allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '));
    return errorResponse(c, new HttpError(405, `${c.req.method} is not allowed here; use ${allowed.join(' or ')}`));
  });
}

/** The API's one error shape: { success: false, error, fields }. */
export function errorResponse(c: Context, error: HttpError): Response {
  return c.json({ success: false, error: error.message, fields: error.fields }, error.status);
}
