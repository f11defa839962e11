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
 *
 * This module is the server and the entry tests import; its parts are under fub/: the shapes and
 * answers (model.ts), accounts and Basic auth (accounts.ts), the rate windows (rate-limits.ts),
 * `POST /v1/events` (events.ts), the paged lists (collections.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { fubAccounts, AUTH_REQUIRED, basicKey } from './fub/accounts.ts';
import { listEvents, searchPeople } from './fub/collections.ts';
import { acceptEvent, parseJson } from './fub/events.ts';
import {
  errorMessage,
  json,
  troubleSchema,
  type Answer,
  type FubAccount,
  type FubAccountInput,
  type FubPerson,
  type FubRateContext,
  type FubRecordedEvent,
  type FubTrouble,
} from './fub/model.ts';
import { fubRateLimits, WINDOW_SECONDS } from './fub/rate-limits.ts';
import { header, readBody, startLoopbackServer, troubleQueue } from './loopback-server.ts';
import type { RecordedRequest } from './resend.ts';

export type {
  FubAccount,
  FubAccountInput,
  FubPerson,
  FubRateContext,
  FubRecordedEvent,
  FubTrouble,
} from './fub/model.ts';

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

export async function startFakeFub({ apiKey, port, inspection = false }: FakeFubOptions = {}): Promise<FakeFub> {
  const archived = new Set<string>();
  const peopleByKey = new Map<string, FubPerson[]>();
  const accounts = fubAccounts((account) => peopleByKey.set(account.apiKey, []));
  const rates = fubRateLimits();
  const events: FubRecordedEvent[] = [];
  const requests: RecordedRequest[] = [];
  const troubles = troubleQueue<FubTrouble>();
  let downStatus: number | null = null;
  let nextPersonId = 1;
  let nextEventId = 1;

  const first = accounts.add({ apiKey });

  function postEvent(account: FubAccount, rawBody: string, headers: IncomingHttpHeaders): Answer {
    const body = parseJson(rawBody);
    const outcome = body.ok
      ? acceptEvent(account, body.value, { peopleByKey, archived, newPersonId: () => nextPersonId++ })
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
      const limit = rates.limitOf(context, accounts.registered(headers));
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
    const counted = rates.count(account.apiKey, context, accounts.registered(headers));
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
    if (accounts.isExpired(account.apiKey) && !isEventPost) {
      return errorMessage(403, 'Your Follow Up Boss account has expired. Please contact support to reactivate it.');
    }
    if (isEventPost) return postEvent(account, rawBody, headers);
    if (method === 'GET' && path === '/v1/events') return listEvents(events, account.apiKey, query, server.origin);
    if (method === 'GET' && path === '/v1/people') return searchPeople(people(account.apiKey), query, server.origin);
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
    rates.reset();
    accounts.reset();
    archived.clear();
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
    addAccount: accounts.add,
    expireAccount(key) {
      accounts.expire(key);
    },
    registerSystem(name, key) {
      accounts.registerSystem(name, key);
    },
    archiveSource(source) {
      archived.add(source);
    },
    setLimit(context, limit, who) {
      rates.setLimit(context, limit, who);
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
