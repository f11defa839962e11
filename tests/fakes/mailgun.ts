/**
 * A local stand-in for Mailgun's sending API
 * (https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages), served by
 * node:http on 127.0.0.1 and a random port. It follows the published behaviour of
 * `POST /v3/{domain}/messages`: HTTP Basic auth with user `api` and the key (401 "Forbidden"
 * otherwise), a form body (application/x-www-form-urlencoded or multipart/form-data) with from,
 * to, subject and text or html (400 `{ message }` when one is missing or not an address) and
 * `h:Name` fields as custom headers, `attachment` parts as files (multipart only: an `attachment`
 * that is not a file part is refused with 400), 404 for a domain it does not know, and `{ id: "<…@domain>", message: "Queued. Thank you." }` on success.
 *
 * A test can make it answer 429 (with Retry-After), 5xx, or slowly, for the next N requests.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { header, readBody, startLoopbackServer, troubleQueue } from './loopback-server.ts';
import { addressOf, type FakeAttachment, type RecordedRequest } from './resend.ts';

export interface MailgunMessage {
  id: string;
  domain: string;
  from: string;
  to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  /** User variables (`v:name` fields). */
  variables: Record<string, string>;
  /** Custom MIME headers (`h:Name` fields), by name. */
  headers: Record<string, string>;
  /** The `attachment` file parts. */
  attachments: FakeAttachment[];
  contentType: string;
  receivedAt: Date;
}

/** Something to go wrong with the next requests that pass authentication. */
export type MailgunTrouble =
  /** 429, with Retry-After when given. */
  | { kind: 'rate-limit'; retryAfter?: number | string }
  /** 500 by default, or another 5xx. */
  | { kind: 'server-error'; status?: number }
  /** Answers normally, after `ms`. */
  | { kind: 'slow'; ms: number };

export interface FakeMailgun {
  /** Base URL to configure as MAILGUN_API_URL. */
  readonly url: string;
  readonly apiKey: string;
  /** The sending domain it knows. */
  readonly domain: string;
  readonly messages: MailgunMessage[];
  readonly requests: RecordedRequest[];
  trouble(trouble: MailgunTrouble, times?: number): void;
  reset(): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

const message = (status: number, text: string, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify({ message: text }),
  headers,
});

const FORBIDDEN: Answer = { status: 401, body: 'Forbidden', headers: { 'www-authenticate': 'Basic realm="MG API"' } };

/** Both form encodings, parsed as a browser would (the web Request of Node's fetch). */
async function formFields(
  body: Buffer,
  contentType: string,
): Promise<{ fields: Map<string, string[]>; files: Map<string, File[]> } | null> {
  try {
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    }).formData();
    const fields = new Map<string, string[]>();
    const files = new Map<string, File[]>();
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields.set(name, [...(fields.get(name) ?? []), value]);
      else files.set(name, [...(files.get(name) ?? []), value]);
    }
    return { fields, files };
  } catch {
    return null;
  }
}

/** Mailgun's 'to' may repeat and may list several addresses separated by commas. */
const splitAddresses = (values: readonly string[]): string[] =>
  values.flatMap((value) => value.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)).map((value) => value.trim());

export async function startFakeMailgun({
  apiKey = 'fake-mailgun-key-0123456789abcdef',
  domain = 'mg.example.com',
} = {}): Promise<FakeMailgun> {
  const messages: MailgunMessage[] = [];
  const requests: RecordedRequest[] = [];
  const troubles = troubleQueue<MailgunTrouble>();

  function authorized(headers: IncomingHttpHeaders): boolean {
    const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header(headers, 'authorization') ?? '');
    if (!basic) return false;
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    return decoded === `api:${apiKey}`;
  }

  async function send(pathDomain: string, body: Buffer, contentType: string): Promise<Answer> {
    const kind = contentType.toLowerCase();
    if (!kind.startsWith('application/x-www-form-urlencoded') && !kind.startsWith('multipart/form-data')) {
      return message(400, 'Content-Type must be application/x-www-form-urlencoded or multipart/form-data');
    }
    const form = await formFields(body, contentType);
    if (!form) return message(400, 'The request body could not be parsed');
    const { fields, files } = form;
    if (fields.has('attachment')) return message(400, "'attachment' parameter must be a file");
    const one = (name: string): string | undefined => fields.get(name)?.[0];
    const from = one('from');
    if (!from) return message(400, "'from' parameter is missing");
    const toValues = fields.get('to') ?? [];
    if (toValues.length === 0 || toValues.every((value) => value.trim() === '')) {
      return message(400, "'to' parameter is missing");
    }
    const subject = one('subject');
    if (subject === undefined) return message(400, "'subject' parameter is missing");
    const html = one('html') ?? null;
    const text = one('text') ?? null;
    if (html === null && text === null && !one('template') && !one('amp-html')) {
      return message(400, "Need at least one of 'text', 'html', 'amp-html' or 'template' parameters specified");
    }
    if (addressOf(from) === null) {
      return message(400, "'from' parameter is not a valid address. please check documentation");
    }
    const to = splitAddresses(toValues);
    if (!to.every((address) => addressOf(address) !== null)) {
      return message(400, "'to' parameter is not a valid address. please check documentation");
    }
    const variables: Record<string, string> = {};
    const customHeaders: Record<string, string> = {};
    for (const [name, values] of fields) {
      if (name.startsWith('v:') && values[0] !== undefined) variables[name.slice(2)] = values[0];
      if (name.startsWith('h:') && values[0] !== undefined) customHeaders[name.slice(2)] = values[0];
    }
    const id = `<${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}.${randomBytes(6).toString('hex')}@${pathDomain}>`;
    messages.push({
      id,
      domain: pathDomain,
      from,
      to,
      subject,
      html,
      text,
      variables,
      headers: customHeaders,
      attachments: await Promise.all(
        (files.get('attachment') ?? []).map(async (file) => ({
          filename: file.name,
          contentType: file.type || null,
          content: Buffer.from(await file.arrayBuffer()),
        })),
      ),
      contentType,
      receivedAt: new Date(),
    });
    return { status: 200, body: JSON.stringify({ id, message: 'Queued. Thank you.' }) };
  }

  async function answer(method: string, path: string, body: Buffer, headers: IncomingHttpHeaders): Promise<Answer> {
    const route = /^\/v3\/([^/]+)\/messages$/.exec(path);
    if (!route) return { status: 404, body: '404 page not found' };
    if (method !== 'POST') return message(405, 'Method Not Allowed');
    if (!authorized(headers)) return FORBIDDEN;
    const pathDomain = decodeURIComponent(route[1] ?? '');
    if (pathDomain !== domain) return message(404, `Domain not found: ${pathDomain}`);
    const trouble = troubles.next();
    if (trouble?.kind === 'rate-limit') {
      return message(
        429,
        'Too many requests',
        trouble.retryAfter === undefined ? undefined : { 'retry-after': String(trouble.retryAfter) },
      );
    }
    if (trouble?.kind === 'server-error') return message(trouble.status ?? 500, 'Internal Server Error');
    const sent = await send(pathDomain, body, header(headers, 'content-type') ?? '');
    return trouble?.kind === 'slow' ? { ...sent, delayMs: trouble.ms } : sent;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const method = request.method ?? 'GET';
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const result = await answer(method, path, body, request.headers);
    requests.push({ method, path, headers: request.headers, body: body.toString('utf8'), status: result.status });
    if (result.delayMs) await new Promise((resolve) => setTimeout(resolve, result.delayMs));
    if (response.destroyed) return;
    const json = result.body.startsWith('{');
    response.writeHead(result.status, {
      'content-type': json ? 'application/json' : 'text/plain; charset=utf-8',
      ...result.headers,
    });
    response.end(result.body);
  }

  const server = await startLoopbackServer(handle);

  return {
    url: server.origin,
    apiKey,
    domain,
    messages,
    requests,
    trouble(trouble, times = 1) {
      troubles.plan(trouble, times);
    },
    reset() {
      messages.length = 0;
      requests.length = 0;
      troubles.clear();
    },
    close: () => server.close(),
  };
}
