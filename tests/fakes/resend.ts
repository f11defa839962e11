/**
 * A local stand-in for Resend's e-mail API (https://resend.com/docs/api-reference), served by
 * node:http on 127.0.0.1 and a random port. It follows the published behaviour of
 * `POST /emails`: Bearer auth (401 missing_api_key, 403 invalid_api_key), a User-Agent required
 * (403), a JSON body with from, to, subject and html or text (422 missing_required_field or
 * validation_error; custom `headers` must be an object of strings; each of `attachments` needs a
 * filename and its content in base64 or a path, else 422 validation_error), `{ id }` on success, and the
 * Idempotency-Key rules (the same key and body answer the first id without sending again; the same key with another body is 409; a key over
 * 256 characters is 400). Errors are `{ statusCode, name, message }`.
 *
 * A test can make it answer 429 with Retry-After, 5xx, or slowly, for the next N requests.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { header, readBody, startLoopbackServer, troubleQueue } from './loopback-server.ts';
import * as z from 'zod';

export interface ResendEmail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  idempotencyKey: string | null;
  /** The custom e-mail headers of the body's `headers` object (List-Unsubscribe, …). */
  headers: Record<string, string>;
  /** The files of the body's `attachments`, decoded. */
  attachments: FakeAttachment[];
  receivedAt: Date;
}

/** A file a fake provider received with a message. */
export interface FakeAttachment {
  filename: string;
  contentType: string | null;
  content: Buffer;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** Something to go wrong with the next requests that pass authentication. */
export type ResendTrouble =
  /** 429 rate_limit_exceeded, with Retry-After when given (seconds or an HTTP date). */
  | { kind: 'rate-limit'; retryAfter?: number | string }
  /** 500 internal_server_error by default, or another 5xx. */
  | { kind: 'server-error'; status?: number }
  /** Answers normally, after `ms` (a client with a shorter time limit gives up first). */
  | { kind: 'slow'; ms: number };

export interface FakeResend {
  /** Base URL to configure as RESEND_API_URL. */
  readonly url: string;
  /** The only API key it accepts. */
  readonly apiKey: string;
  /** Messages accepted (an idempotent replay is not a new message). */
  readonly emails: ResendEmail[];
  /** Every request and the status it was answered with. */
  readonly requests: RecordedRequest[];
  /** The next `times` authenticated requests to /emails meet `trouble` (Infinity: until reset). */
  trouble(trouble: ResendTrouble, times?: number): void;
  /** Forgets messages, requests, idempotency keys and planned trouble. */
  reset(): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

const EMAIL = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$/;

/** The address of `email@example.com`, `Name <email@example.com>` or `"Name" <email@example.com>`. */
export function addressOf(value: string): string | null {
  const trimmed = value.trim();
  const named = /^(?:"(?:[^"\\]|\\.)*"|[^"<>]*?)\s*<([^<>\s]+)>$/.exec(trimmed);
  const email = named ? (named[1] ?? '') : trimmed;
  return EMAIL.test(email) ? email : null;
}

const error = (status: number, name: string, message: string, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify({ statusCode: status, name, message }),
  headers,
});

// Each field may be absent (zod 4 takes a bare z.unknown() key as required): the checks below say
// which are needed, with Resend's own messages.
const bodySchema = z.looseObject({
  from: z.unknown().optional(),
  to: z.unknown().optional(),
  subject: z.unknown().optional(),
  html: z.unknown().optional(),
  text: z.unknown().optional(),
  headers: z.unknown().optional(),
  attachments: z.unknown().optional(),
});

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Resend's attachment: a filename and either base64 `content` or a `path` (URL) to fetch it from. */
const attachmentsSchema = z
  .array(
    z
      .object({
        filename: z.string().min(1),
        content: z.string().min(1).regex(BASE64).optional(),
        path: z.url().optional(),
        content_type: z.string().min(1).optional(),
      })
      .refine((attachment) => attachment.content !== undefined || attachment.path !== undefined),
  )
  .optional();

const headersSchema = z.record(z.string(), z.string()).optional();

export async function startFakeResend({ apiKey = 're_test_fake_key_0123456789' } = {}): Promise<FakeResend> {
  const emails: ResendEmail[] = [];
  const requests: RecordedRequest[] = [];
  const troubles = troubleQueue<ResendTrouble>();
  /** Idempotency-Key → the body it came with and the id answered. */
  const keys = new Map<string, { body: string; id: string }>();

  function send(rawBody: string, headers: IncomingHttpHeaders): Answer {
    const contentType = header(headers, 'content-type') ?? '';
    if (!contentType.toLowerCase().startsWith('application/json')) {
      return error(422, 'validation_error', 'Invalid `content-type` header. It must be `application/json`.');
    }
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      return error(422, 'validation_error', 'Invalid JSON body.');
    }
    const parsed = bodySchema.safeParse(json);
    if (!parsed.success) return error(422, 'validation_error', 'The body must be a JSON object.');
    const body = parsed.data;
    for (const field of ['from', 'to', 'subject'] as const) {
      const value = body[field];
      if (value === undefined || value === null || value === '') {
        return error(422, 'missing_required_field', `Missing \`${field}\` field.`);
      }
    }
    if (typeof body.html !== 'string' && typeof body.text !== 'string') {
      return error(422, 'missing_required_field', 'Missing `html` or `text` field.');
    }
    if (typeof body.from !== 'string' || addressOf(body.from) === null) {
      return error(
        422,
        'validation_error',
        'Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
      );
    }
    const to = typeof body.to === 'string' ? [body.to] : body.to;
    if (
      !Array.isArray(to) ||
      to.length === 0 ||
      to.length > 50 ||
      !to.every((address) => typeof address === 'string' && addressOf(address) !== null)
    ) {
      return error(
        422,
        'validation_error',
        'Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
      );
    }
    if (typeof body.subject !== 'string') return error(422, 'validation_error', 'Invalid `subject` field.');
    const customHeaders = headersSchema.safeParse(body.headers);
    if (!customHeaders.success) return error(422, 'validation_error', 'Invalid `headers` field.');
    const attachments = attachmentsSchema.safeParse(body.attachments);
    if (!attachments.success) return error(422, 'validation_error', 'Invalid `attachments` field.');

    const idempotencyKey = header(headers, 'idempotency-key') ?? null;
    if (idempotencyKey !== null) {
      if (idempotencyKey.length < 1 || idempotencyKey.length > 256) {
        return error(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.');
      }
      const seen = keys.get(idempotencyKey);
      if (seen && seen.body !== rawBody) {
        return error(409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
      }
      if (seen) return { status: 200, body: JSON.stringify({ id: seen.id }) };
    }
    const id = randomUUID();
    emails.push({
      id,
      from: body.from,
      to: to.filter((address) => typeof address === 'string'),
      subject: body.subject,
      html: typeof body.html === 'string' ? body.html : null,
      text: typeof body.text === 'string' ? body.text : null,
      idempotencyKey,
      headers: customHeaders.data ?? {},
      attachments: (attachments.data ?? []).map((attachment) => ({
        filename: attachment.filename,
        contentType: attachment.content_type ?? null,
        content: Buffer.from(attachment.content ?? '', 'base64'),
      })),
      receivedAt: new Date(),
    });
    if (idempotencyKey !== null) keys.set(idempotencyKey, { body: rawBody, id });
    return { status: 200, body: JSON.stringify({ id }) };
  }

  function answer(method: string, path: string, rawBody: string, headers: IncomingHttpHeaders): Answer {
    // Resend sits behind a firewall that refuses requests without a User-Agent (its "error 1010").
    if (!header(headers, 'user-agent')) return { status: 403, body: 'error code: 1010' };
    if (path !== '/emails') return error(404, 'not_found', 'The requested endpoint does not exist.');
    if (method !== 'POST') return error(405, 'method_not_allowed', 'Method is not allowed for the requested path.');
    const authorization = header(headers, 'authorization') ?? '';
    const bearer = /^Bearer (.+)$/.exec(authorization);
    if (!bearer) return error(401, 'missing_api_key', 'Missing API key in the authorization header.');
    if (bearer[1] !== apiKey) return error(403, 'invalid_api_key', 'API key is invalid.');
    const trouble = troubles.next();
    if (trouble?.kind === 'rate-limit') {
      return error(
        429,
        'rate_limit_exceeded',
        'Too many requests. You can only make 2 requests per second. See rate limit response headers for more information. Or contact support to increase rate limit.',
        {
          'ratelimit-limit': '2',
          'ratelimit-remaining': '0',
          ...(trouble.retryAfter === undefined
            ? {}
            : { 'retry-after': String(trouble.retryAfter), 'ratelimit-reset': String(trouble.retryAfter) }),
        },
      );
    }
    if (trouble?.kind === 'server-error') {
      return error(trouble.status ?? 500, 'internal_server_error', 'An unexpected error occurred.');
    }
    const sent = send(rawBody, headers);
    return trouble?.kind === 'slow' ? { ...sent, delayMs: trouble.ms } : sent;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = (await readBody(request)).toString('utf8');
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const result = answer(method, path, rawBody, request.headers);
    requests.push({ method, path, headers: request.headers, body: rawBody, status: result.status });
    if (result.delayMs) await new Promise((resolve) => setTimeout(resolve, result.delayMs));
    if (response.destroyed) return;
    const json = result.body.startsWith('{');
    response.writeHead(result.status, {
      'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8',
      ...result.headers,
    });
    response.end(result.body);
  }

  const server = await startLoopbackServer(handle);

  return {
    url: server.origin,
    apiKey,
    emails,
    requests,
    trouble(trouble, times = 1) {
      troubles.plan(trouble, times);
    },
    reset() {
      emails.length = 0;
      requests.length = 0;
      troubles.clear();
      keys.clear();
    },
    close: () => server.close(),
  };
}
