/**
 * A local stand-in for Follow Up Boss's API (https://docs.followupboss.com/reference), served by
 * node:http on 127.0.0.1 and a random port. It follows the fact sheet
 * (shared/research/follow-up-boss-api.md):
 *
 * - Accounts, each with an API key. Auth is HTTP Basic with the key as user name and any password;
 *   a missing or unknown key answers 401 with `WWW-Authenticate: Basic realm="Follow Up Boss API"`,
 *   FUB's `errorMessage` body and no rate-limit headers. An expired account answers 403 to
 *   everything except `POST /v1/events`, which FUB keeps open "so that there is no data loss".
 * - `GET /v1/identity`: `{ account: { id, domain, name, owner: { name, email } }, user: { id, name, email } }`.
 * - `POST /v1/events`: a JSON object (else 400 `{ errorMessage }`). The person is matched in the
 *   account by e-mail (case-insensitive) or by phone digits together with first and last name:
 *   201 with the new person's JSON, 200 with the known person's (tags merged, new e-mails, phones
 *   and addresses added; source and sourceUrl are kept from the creation). An unknown `person.id`
 *   is 404; a source whose lead flow is archived answers 204 with an empty body.
 * - `GET /v1/people?email=`: the account's people with that e-mail (case-insensitive), and
 *   `GET /v1/events?personId=&type=`: its accepted events (the `events` rate-limit context, the
 *   people search in `global`). Both list newest id first, `limit` 10 by default and at most 100,
 *   `offset` or the `next` of the previous page, under `_metadata` (collection, offset, limit,
 *   total, next, nextLink), as FUB's pagination does.
 * - Rate limits: a sliding 10-second window per account and context (`POST.events` unlimited,
 *   `events` 20 or 10, `global` 250 or 125, the higher figure for a registered system, i.e. a
 *   request with a known X-System and X-System-Key pair). Authenticated answers carry
 *   X-RateLimit-Window and -Context, and -Limit and -Remaining when the context has a limit; an
 *   exhausted window answers 429 with Retry-After (seconds until its oldest request leaves it).
 *
 * A test can make the next N authenticated requests meet trouble (429, 5xx, a slow answer, a
 * dropped connection), or take the whole service down until further notice.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { header, readBody, startLoopbackServer, troubleQueue } from './loopback-server.ts';
import type { RecordedRequest } from './resend.ts';

export interface FubAccount {
  apiKey: string;
  /** `name: null`: identity leaves the name out, as FUB's documented example does. */
  account: { id: number; domain: string; name: string | null; owner: { name: string; email: string } };
  user: { id: number; name: string; email: string };
}

export interface FubAccountInput {
  apiKey?: string;
  account?: Partial<Omit<FubAccount['account'], 'owner'>> & { owner?: Partial<FubAccount['account']['owner']> };
  user?: Partial<FubAccount['user']>;
}

export interface FubPerson {
  id: number;
  created: string;
  updated: string;
  createdVia: string;
  lastActivity: string;
  name: string;
  firstName: string;
  lastName: string;
  stage: string;
  stageId: number;
  source: string | null;
  sourceUrl: string | null;
  contacted: boolean;
  price: number;
  assignedLenderId: number | null;
  assignedLenderName: string | null;
  assignedUserId: number;
  assignedTo: string;
  tags: string[];
  emails: { value: string; type: string; isPrimary: boolean }[];
  phones: { value: string; type: string; status: string; isPrimary: boolean }[];
  addresses: { type: string; street: string; city: string; state: string; code: string; country: string }[];
}

export interface FubRecordedEvent {
  /** The event's id, for an event FUB accepted (200 or 201). */
  id: number | null;
  /** The account the key belongs to. */
  apiKey: string;
  /** The status answered: 200, 201, 204 (archived source), 400 or 404. */
  status: number;
  /** The person created or matched; null for 204, 400 and 404. */
  personId: number | null;
  /** The event type as FUB keeps it (`Inquiry` becomes Property or General Inquiry). */
  type: string | null;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  headers: { authorization: string | null; system: string | null; systemKey: string | null; userAgent: string | null };
  receivedAt: Date;
}

/** FUB's rate-limit contexts (fact sheet §4). */
export type FubRateContext = 'POST.events' | 'events' | 'global';

/** Something to go wrong with the next requests that pass authentication. */
export type FubTrouble =
  /** 429 with X-RateLimit-Remaining: 0, and Retry-After when given (seconds or an HTTP date). */
  | { kind: 'rate-limit'; retryAfter?: number | string }
  /** 500 by default, or another 5xx, with an `errorMessage` body. */
  | { kind: 'server-error'; status?: number }
  /**
   * Answers normally, after `ms`: the request is handled at once (an event is recorded), so a
   * client that gave up before the answer cannot tell whether FUB took it.
   */
  | { kind: 'slow'; ms: number }
  /** The connection is destroyed without an answer, and nothing is handled (no event recorded). */
  | { kind: 'drop' };

const troubleSchema: z.ZodType<FubTrouble> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rate-limit'), retryAfter: z.union([z.number(), z.string()]).optional() }),
  z.object({ kind: z.literal('server-error'), status: z.number().int().optional() }),
  z.object({ kind: z.literal('slow'), ms: z.number().min(0) }),
  z.object({ kind: z.literal('drop') }),
]);

export interface FakeFub {
  /** Base URL to configure as FUB_API_URL. */
  readonly url: string;
  /** The API key of the account that exists from the start. */
  readonly apiKey: string;
  /** Every event posted that passed authentication, rate limits and trouble, with its answer. */
  readonly events: FubRecordedEvent[];
  /** Every request and the status it was answered with (0: the connection was dropped). */
  readonly requests: RecordedRequest[];
  addAccount(input?: FubAccountInput): FubAccount;
  /** The account answers 403 from now on, except to POST /v1/events. */
  expireAccount(apiKey: string): void;
  /** X-System and X-System-Key values that count as a registered system (higher limits). */
  registerSystem(name: string, key: string): void;
  /** Events with this `source` answer 204 and create or update nobody. */
  archiveSource(source: string): void;
  /** The limit of a context per 10 s (null: unlimited), for registered systems, others or both. */
  setLimit(context: FubRateContext, limit: number | null, who?: 'registered' | 'unregistered'): void;
  /** The next `times` authenticated requests meet `trouble` (Infinity: until reset). */
  trouble(trouble: FubTrouble, times?: number): void;
  /** Every request answers `status` (text, as a load balancer would) until up(). */
  down(status?: number): void;
  up(): void;
  /** The people of an account (default: the starting account). */
  people(apiKey?: string): FubPerson[];
  /**
   * Forgets people, events, requests, trouble and rate windows, and undoes expiry, archived
   * sources, limits and down(). Accounts and registered systems stay.
   */
  reset(): void;
  close(): Promise<void>;
}

export interface FakeFubOptions {
  /** The starting account's key. Default: a generated one. */
  apiKey?: string;
  /** Default: a free port. */
  port?: number;
  /** Serve GET /__fake/people and /__fake/events, for a browser test that looks inside. */
  inspection?: boolean;
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
  drop?: boolean;
}

const WINDOW_SECONDS = 10;
const JSON_TYPE = 'application/json; charset=UTF-8';
const AUTH_REQUIRED =
  'Authentication is required. Use Basic HTTP Authentication with API Key as username and blank password, or use Bearer token authentication. See https://docs.followupboss.com/reference/authentication';

const DEFAULT_LIMITS: Record<FubRateContext, { registered: number | null; unregistered: number | null }> = {
  'POST.events': { registered: null, unregistered: null },
  events: { registered: 20, unregistered: 10 },
  global: { registered: 250, unregistered: 125 },
};

const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': JSON_TYPE, ...headers },
});
const errorMessage = (status: number, text: string, headers?: Record<string, string>): Answer =>
  json(status, { errorMessage: text }, headers);

const contactSchema = z.looseObject({ value: z.string(), type: z.string().optional() });
const addressSchema = z.looseObject({
  type: z.string().optional(),
  street: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  code: z.string().optional(),
  country: z.string().optional(),
});
// Every field is optional in FUB's docs; what is sent must have the documented type.
const eventSchema = z.looseObject({
  source: z.string().optional(),
  system: z.string().optional(),
  type: z.string().optional(),
  message: z.string().optional(),
  description: z.string().optional(),
  occurredAt: z.iso.datetime({ offset: true }).optional(),
  person: z
    .looseObject({
      id: z.number().int().optional(),
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      emails: z.array(contactSchema).optional(),
      phones: z.array(contactSchema).optional(),
      tags: z.array(z.string()).optional(),
      source: z.string().optional(),
      sourceUrl: z.string().optional(),
      price: z.number().optional(),
      addresses: z.array(addressSchema).optional(),
    })
    .optional(),
  // The zip (`code`) must be a string; bedrooms and the like come as numbers or strings.
  property: z.looseObject({ code: z.string().optional(), price: z.number().optional() }).optional(),
  campaign: z.looseObject({ source: z.string() }).optional(),
});
type EventBody = z.infer<typeof eventSchema>;
type EventPerson = NonNullable<EventBody['person']>;

/** A phone's digits, a leading US country code aside, so "+1 (631) 555-0100" is "6315550100". */
const phoneDigits = (value: string): string => {
  const digits = value.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
};
const sameText = (a: string | undefined, b: string): boolean =>
  a !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The key of `Authorization: Basic base64(key:password)`, any password. */
function basicKey(headers: IncomingHttpHeaders): string | null {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header(headers, 'authorization') ?? '');
  if (!basic) return null;
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? decoded : decoded.slice(0, colon);
}

export async function startFakeFub({ apiKey, port, inspection = false }: FakeFubOptions = {}): Promise<FakeFub> {
  const accounts = new Map<string, FubAccount>();
  const expired = new Set<string>();
  const systems = new Set<string>();
  const archived = new Set<string>();
  const peopleByKey = new Map<string, FubPerson[]>();
  const events: FubRecordedEvent[] = [];
  const requests: RecordedRequest[] = [];
  const troubles = troubleQueue<FubTrouble>();
  /** `${apiKey} ${context}` → times (ms) of the requests counted in the window. */
  const windows = new Map<string, number[]>();
  let limits = structuredClone(DEFAULT_LIMITS);
  let downStatus: number | null = null;
  let nextAccountId = 1_000_001;
  let nextPersonId = 1;
  let nextEventId = 1;

  function addAccount(input: FubAccountInput = {}): FubAccount {
    const id = input.account?.id ?? nextAccountId++;
    const domain = input.account?.domain ?? `account${id}`;
    const account: FubAccount = {
      apiKey: input.apiKey ?? `fka_${randomBytes(16).toString('hex')}`,
      account: {
        id,
        domain,
        name: input.account?.name === undefined ? `Account ${id} Realty` : input.account.name,
        owner: {
          name: input.account?.owner?.name ?? 'Olivia Owner',
          email: input.account?.owner?.email ?? `owner@${domain}.example.com`,
        },
      },
      user: {
        id: input.user?.id ?? 1,
        name: input.user?.name ?? 'Alex Agent',
        email: input.user?.email ?? `agent@${domain}.example.com`,
      },
    };
    if (accounts.has(account.apiKey)) throw new Error('An account with this API key exists already');
    accounts.set(account.apiKey, account);
    peopleByKey.set(account.apiKey, []);
    return account;
  }

  const first = addAccount({ apiKey });

  const registered = (headers: IncomingHttpHeaders): boolean => {
    const name = header(headers, 'x-system');
    const key = header(headers, 'x-system-key');
    return name !== undefined && key !== undefined && systems.has(`${name}\n${key}`);
  };

  /** Counts the request in its window; the headers to answer with, and whether it may proceed. */
  function countRequest(
    key: string,
    context: FubRateContext,
    isRegistered: boolean,
  ): { allowed: boolean; headers: Record<string, string> } {
    const headers: Record<string, string> = {
      'x-ratelimit-window': String(WINDOW_SECONDS),
      'x-ratelimit-context': context,
    };
    const limit = limits[context][isRegistered ? 'registered' : 'unregistered'];
    if (limit === null) return { allowed: true, headers };
    const now = Date.now();
    const times = (windows.get(`${key} ${context}`) ?? []).filter((time) => time > now - WINDOW_SECONDS * 1000);
    windows.set(`${key} ${context}`, times);
    headers['x-ratelimit-limit'] = String(limit);
    const oldest = times[0];
    if (times.length >= limit && oldest !== undefined) {
      const wait = Math.max(1, Math.ceil((oldest + WINDOW_SECONDS * 1000 - now) / 1000));
      return { allowed: false, headers: { ...headers, 'x-ratelimit-remaining': '0', 'retry-after': String(wait) } };
    }
    times.push(now);
    return { allowed: true, headers: { ...headers, 'x-ratelimit-remaining': String(limit - times.length) } };
  }

  function matchPerson(people: FubPerson[], person: EventPerson): FubPerson | undefined {
    const emails = (person.emails ?? []).map((email) => email.value.trim().toLowerCase());
    const phones = (person.phones ?? []).map((phone) => phoneDigits(phone.value)).filter(Boolean);
    return people.find(
      (known) =>
        known.emails.some((email) => emails.includes(email.value.toLowerCase())) ||
        (sameText(person.firstName, known.firstName) &&
          sameText(person.lastName, known.lastName) &&
          known.phones.some((phone) => phones.includes(phoneDigits(phone.value)))),
    );
  }

  /** Adds the e-mails, phones, tags and addresses `person` brings that `known` lacks. */
  function mergeInto(known: FubPerson, person: EventPerson, at: string): void {
    for (const email of person.emails ?? []) {
      if (known.emails.some((existing) => sameText(email.value, existing.value))) continue;
      known.emails.push({
        value: email.value.trim(),
        type: email.type ?? 'other',
        isPrimary: known.emails.length === 0,
      });
    }
    for (const phone of person.phones ?? []) {
      if (known.phones.some((existing) => phoneDigits(existing.value) === phoneDigits(phone.value))) continue;
      known.phones.push({
        value: phone.value.trim(),
        type: phone.type ?? 'other',
        status: 'Valid',
        isPrimary: known.phones.length === 0,
      });
    }
    for (const tag of person.tags ?? []) {
      if (!known.tags.some((existing) => sameText(tag, existing))) known.tags.push(tag);
    }
    for (const address of person.addresses ?? []) {
      const complete = {
        type: address.type ?? 'home',
        street: address.street ?? '',
        city: address.city ?? '',
        state: address.state ?? '',
        code: address.code ?? '',
        country: address.country ?? 'United States',
      };
      if (!known.addresses.some((existing) => JSON.stringify(existing) === JSON.stringify(complete))) {
        known.addresses.push(complete);
      }
    }
    known.updated = at;
    known.lastActivity = at;
  }

  /** What FUB does with an event body: its answer, and the person and type it recorded. */
  function acceptEvent(
    account: FubAccount,
    body: unknown,
  ): { answer: Answer; personId: number | null; type: string | null } {
    const parsed = eventSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `Invalid value for '${issue.path.join('.')}'.` : null;
      return {
        answer: errorMessage(400, where ?? 'The request body must be a JSON object.'),
        personId: null,
        type: null,
      };
    }
    const event = parsed.data;
    const type =
      event.type === 'Inquiry' ? (event.property ? 'Property Inquiry' : 'General Inquiry') : (event.type ?? null);
    const person = event.person;
    if (event.source !== undefined && archived.has(event.source)) {
      return { answer: { status: 204, body: '' }, personId: null, type };
    }
    if (!person) {
      // Not documented: FUB's examples always send a person, and an event needs someone to belong to.
      return { answer: errorMessage(400, 'A person is required.'), personId: null, type };
    }
    const people = peopleByKey.get(account.apiKey) ?? [];
    const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const known =
      person.id === undefined ? matchPerson(people, person) : people.find((candidate) => candidate.id === person.id);
    if (person.id !== undefined && !known) {
      return { answer: errorMessage(404, `Person with id ${person.id} not found.`), personId: null, type };
    }
    if (known) {
      mergeInto(known, person, at);
      return { answer: json(200, known), personId: known.id, type };
    }
    const firstName = person.firstName ?? '';
    const lastName = person.lastName ?? '';
    const created: FubPerson = {
      id: nextPersonId++,
      created: at,
      updated: at,
      createdVia: 'API',
      lastActivity: at,
      name: `${firstName} ${lastName}`.trim(),
      firstName,
      lastName,
      stage: 'Lead',
      stageId: 2,
      // Set once, at creation: later events and PUT cannot change them (fact sheet §2).
      source: event.source ?? person.source ?? null,
      sourceUrl: person.sourceUrl ?? null,
      contacted: false,
      price: person.price ?? event.property?.price ?? 0,
      assignedLenderId: null,
      assignedLenderName: null,
      assignedUserId: account.user.id,
      assignedTo: account.user.name,
      tags: [],
      emails: [],
      phones: [],
      addresses: [],
    };
    mergeInto(created, person, at);
    people.push(created);
    return { answer: json(201, created), personId: created.id, type };
  }

  function postEvent(account: FubAccount, rawBody: string, headers: IncomingHttpHeaders): Answer {
    const body = parseJson(rawBody);
    const outcome = body.ok
      ? acceptEvent(account, body.value)
      : { answer: errorMessage(400, 'Invalid JSON in request body.'), personId: null, type: null };
    const accepted = outcome.answer.status === 200 || outcome.answer.status === 201;
    events.push({
      id: accepted ? nextEventId++ : null,
      apiKey: account.apiKey,
      status: outcome.answer.status,
      personId: outcome.personId,
      type: outcome.type,
      body: body.ok ? body.value : rawBody,
      headers: {
        authorization: header(headers, 'authorization') ?? null,
        system: header(headers, 'x-system') ?? null,
        systemKey: header(headers, 'x-system-key') ?? null,
        userAgent: header(headers, 'user-agent') ?? null,
      },
      receivedAt: new Date(),
    });
    return outcome.answer;
  }

  /** One page of `items` (newest first already) as FUB pages a collection. */
  function page(collection: string, items: unknown[], path: string, query: URLSearchParams): Answer {
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 10) || 10));
    const fromNext = Number(Buffer.from(query.get('next') ?? '', 'base64url').toString('utf8'));
    const offset = query.get('next') ? fromNext || 0 : Math.max(0, Number(query.get('offset') ?? 0) || 0);
    const more = offset + limit < items.length;
    const next = more ? Buffer.from(String(offset + limit), 'utf8').toString('base64url') : null;
    const nextQuery = new URLSearchParams(query);
    nextQuery.delete('offset');
    if (next) nextQuery.set('next', next);
    return json(200, {
      _metadata: {
        collection,
        offset,
        limit,
        total: items.length,
        next,
        nextLink: next ? `${server.origin}${path}?${nextQuery.toString()}` : null,
      },
      [collection]: items.slice(offset, offset + limit),
    });
  }

  function listEvents(key: string, query: URLSearchParams): Answer {
    const personId = query.get('personId');
    const types = query.get('type')?.split(',');
    const own = events
      .filter((event) => event.apiKey === key && event.id !== null)
      .filter((event) => personId === null || String(event.personId) === personId)
      .filter((event) => !types || (event.type !== null && types.includes(event.type)))
      .map((event) => {
        const body = eventSchema.safeParse(event.body).data;
        return {
          id: event.id,
          created: event.receivedAt.toISOString(),
          updated: event.receivedAt.toISOString(),
          personId: event.personId,
          message: body?.message ?? null,
          description: body?.description ?? null,
          noteId: null,
          source: body?.source ?? null,
          type: event.type,
          property: body?.property ?? null,
        };
      })
      .reverse();
    return page('events', own, '/v1/events', query);
  }

  function searchPeople(key: string, query: URLSearchParams): Answer {
    const email = query.get('email');
    const found = people(key)
      .filter((person) => email === null || person.emails.some((known) => sameText(email, known.value)))
      .toReversed();
    return page('people', found, '/v1/people', query);
  }

  function answer(
    method: string,
    path: string,
    query: URLSearchParams,
    rawBody: string,
    headers: IncomingHttpHeaders,
  ): Answer {
    if (inspection && method === 'GET' && path === '/__fake/people') return json(200, { people: people() });
    if (inspection && method === 'GET' && path === '/__fake/events') return json(200, { events });
    if (inspection && method === 'POST' && path.startsWith('/__fake/')) return control(path.slice(8), rawBody);
    if (downStatus !== null) {
      return {
        status: downStatus,
        body: `${downStatus} Service Temporarily Unavailable`,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      };
    }
    const key = basicKey(headers);
    const account = key === null ? undefined : accounts.get(key);
    if (!account) {
      return errorMessage(401, AUTH_REQUIRED, { 'www-authenticate': 'Basic realm="Follow Up Boss API"' });
    }
    const trouble = troubles.next();
    if (trouble?.kind === 'drop') return { status: 0, body: '', drop: true };
    const context: FubRateContext = path === '/v1/events' ? (method === 'POST' ? 'POST.events' : 'events') : 'global';
    if (trouble?.kind === 'rate-limit') {
      const limit = limits[context][registered(headers) ? 'registered' : 'unregistered'];
      return errorMessage(429, 'Too many requests. Please wait before retrying.', {
        'x-ratelimit-window': String(WINDOW_SECONDS),
        'x-ratelimit-context': context,
        ...(limit === null ? {} : { 'x-ratelimit-limit': String(limit) }),
        'x-ratelimit-remaining': '0',
        ...(trouble.retryAfter === undefined ? {} : { 'retry-after': String(trouble.retryAfter) }),
      });
    }
    if (trouble?.kind === 'server-error') {
      return errorMessage(trouble.status ?? 500, 'An unexpected error occurred. Please try again later.');
    }
    const counted = countRequest(account.apiKey, context, registered(headers));
    const result = counted.allowed
      ? routed(method, path, query, rawBody, headers, account)
      : errorMessage(429, 'Too many requests. Please wait before retrying.');
    return {
      ...result,
      headers: { ...result.headers, ...counted.headers },
      delayMs: trouble?.kind === 'slow' ? trouble.ms : undefined,
    };
  }

  function routed(
    method: string,
    path: string,
    query: URLSearchParams,
    rawBody: string,
    headers: IncomingHttpHeaders,
    account: FubAccount,
  ): Answer {
    const isEventPost = method === 'POST' && path === '/v1/events';
    if (expired.has(account.apiKey) && !isEventPost) {
      return errorMessage(403, 'Your Follow Up Boss account has expired. Please contact support to reactivate it.');
    }
    if (isEventPost) return postEvent(account, rawBody, headers);
    if (method === 'GET' && path === '/v1/events') return listEvents(account.apiKey, query);
    if (method === 'GET' && path === '/v1/people') return searchPeople(account.apiKey, query);
    if (method === 'GET' && path === '/v1/identity') {
      const { name, ...unnamed } = account.account;
      return json(200, { account: name === null ? unnamed : account.account, user: account.user });
    }
    return errorMessage(404, 'The requested resource was not found.');
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = (await readBody(request)).toString('utf8');
    const method = request.method ?? 'GET';
    const { pathname: path, searchParams } = new URL(request.url ?? '/', 'http://fake');
    const result = answer(method, path, searchParams, rawBody, request.headers);
    requests.push({ method, path, headers: request.headers, body: rawBody, status: result.status });
    if (result.drop) {
      request.socket.destroy();
      return;
    }
    if (result.delayMs) await new Promise((resolve) => setTimeout(resolve, result.delayMs));
    if (response.destroyed) return;
    response.writeHead(result.status, result.headers);
    response.end(result.body);
  }

  function people(key = first.apiKey): FubPerson[] {
    const found = peopleByKey.get(key);
    if (!found) throw new Error('No account with this API key');
    return found;
  }

  /** Forgets what happened and undoes every setting (accounts and registered systems stay). */
  function resetAll(): void {
    for (const list of peopleByKey.values()) list.length = 0;
    events.length = 0;
    requests.length = 0;
    troubles.clear();
    windows.clear();
    expired.clear();
    archived.clear();
    limits = structuredClone(DEFAULT_LIMITS);
    downStatus = null;
  }

  /**
   * With `inspection`, a process that runs the fake on its own (fub-server.ts) is steered over HTTP:
   * POST /__fake/trouble `{ trouble, times }`, /__fake/down `{ status }`, /__fake/up, /__fake/reset.
   */
  function control(action: string, rawBody: string): Answer {
    const body = z
      .record(z.string(), z.unknown())
      .catch({})
      .parse(rawBody ? JSON.parse(rawBody) : {});
    if (action === 'trouble') {
      const trouble = troubleSchema.parse(body.trouble);
      const times = z
        .number()
        .positive()
        .nullable()
        .catch(1)
        .parse(body.times ?? 1);
      troubles.plan(trouble, times ?? Infinity);
    } else if (action === 'down') downStatus = z.number().int().min(500).max(599).catch(503).parse(body.status);
    else if (action === 'up') downStatus = null;
    else if (action === 'reset') resetAll();
    else return json(404, { errorMessage: 'No such control' });
    return json(200, { ok: true });
  }

  const server = await startLoopbackServer(handle, port);

  return {
    url: server.origin,
    apiKey: first.apiKey,
    events,
    requests,
    addAccount,
    expireAccount(key) {
      if (!accounts.has(key)) throw new Error('No account with this API key');
      expired.add(key);
    },
    registerSystem(name, key) {
      systems.add(`${name}\n${key}`);
    },
    archiveSource(source) {
      archived.add(source);
    },
    setLimit(context, limit, who) {
      if (who !== 'unregistered') limits[context].registered = limit;
      if (who !== 'registered') limits[context].unregistered = limit;
    },
    trouble(trouble, times = 1) {
      troubles.plan(trouble, times);
    },
    down(status = 503) {
      downStatus = status;
    },
    up() {
      downStatus = null;
    },
    people,
    reset: resetAll,
    close: () => server.close(),
  };
}
