/**
 * Follow Up Boss (https://docs.followupboss.com/reference; facts in
 * shared/research/follow-up-boss-api.md): `GET /v1/identity` to check a key and name its account,
 * `POST /v1/events` to send a lead, `GET /v1/people?email=` and `GET /v1/events?personId=` to find
 * an event sent before whose answer was lost. Auth is HTTP Basic with the API key as user name and
 * an empty password; X-System and X-System-Key go along only as a pair (one without the other is
 * worse than neither). Every answer becomes a FubAnswer saying what the caller should do next: done, accepted
 * but ignored (204: the source's lead flow is archived), wait (429), stop (401/403: the integration
 * needs attention), give up on this event (other 4xx) or retry later (5xx, network, timeout).
 * The key never appears in a message.
 */
import * as z from 'zod';
import { parseRetryAfter } from '../../platform/retry-after.ts';
import { endpoint, isTimeout, jsonBody, safeDetail } from '../email/public/providers/provider-http.server.ts';

export interface FubCredentials {
  apiKey: string;
  system: string | null;
  systemKey: string | null;
}

export interface FubIdentity {
  accountId: number;
  accountName: string;
  domain: string;
  userName: string;
  userEmail: string;
}

export type FubAnswer =
  | { kind: 'created' | 'updated'; status: 200 | 201; personId: number }
  /** Accepted but ignored: the lead flow of the event's source is archived in FUB. */
  | { kind: 'archived'; status: 204 }
  | { kind: 'rate-limited'; status: 429; retryAfterSeconds: number }
  /** Stop retrying: the key is wrong or the account cannot be used; the integration needs attention. */
  | { kind: 'refused'; status: 401 | 403; message: string }
  /** Any other 4xx: this event will never pass as it is (status null: refused before any request). */
  | { kind: 'rejected'; status: number | null; message: string }
  /** 5xx, an unexpected answer, a network error or a timeout: try again later. */
  | { kind: 'unavailable'; status: number | null; message: string };

export type FubFailure = Exclude<FubAnswer, { kind: 'created' | 'updated' | 'archived' }>;

/**
 * Whether FUB holds an event: `found` on the timeline of person `personId`, `missing` (no person
 * with the e-mail, or none of theirs carries the event), or why FUB could not be asked.
 */
export type FubLookup = { kind: 'found'; status: 200; personId: number } | { kind: 'missing' } | FubFailure;

/** What identifies a sent event: its person's e-mail, its type, and a text only its description holds. */
export interface FubEventMark {
  email: string;
  type: FubEventType;
  reference: string;
}

/** Event types FUB knows (fact sheet §2); action plans and automations fire for the inquiries. */
export type FubEventType =
  | 'Registration'
  | 'Inquiry'
  | 'Seller Inquiry'
  | 'Property Inquiry'
  | 'General Inquiry'
  | 'Viewed Property'
  | 'Saved Property'
  | 'Visited Website'
  | 'Incoming Call'
  | 'Unsubscribed'
  | 'Property Search'
  | 'Saved Property Search'
  | 'Visited Open House'
  | 'Viewed Page';

export interface FubAddress {
  type?: string;
  street: string;
  city: string;
  state: string;
  /** The zip code, always a string for FUB. */
  code: string;
  country?: string;
}

export interface FubEvent {
  /** The lead-source brand the agent sees in FUB. */
  source: string;
  /** The software sending the lead. */
  system: string;
  type: FubEventType;
  message: string;
  description?: string;
  /** ISO-8601 UTC; more than a day old makes the event historical (no action plans fire). */
  occurredAt?: string;
  person: {
    firstName: string;
    lastName: string;
    emails: { value: string; type?: string }[];
    phones: { value: string; type?: string }[];
    tags: string[];
    /** A link to the lead on our site; FUB keeps it only when it creates the person. */
    sourceUrl?: string;
    addresses?: FubAddress[];
  };
  /** Every field optional (fact sheet §2); `code` (the ZIP) is a string. */
  property?: {
    street?: string;
    city?: string;
    state?: string;
    code?: string;
    price?: number;
    url?: string;
    type?: string;
  };
}

export interface FubRequestOptions {
  /** Default FUB_TIMEOUT_MS. */
  timeoutMs?: number;
}

export interface FubClient {
  identity(
    credentials: FubCredentials,
    options?: FubRequestOptions,
  ): Promise<{ ok: true; identity: FubIdentity } | { ok: false; answer: FubFailure }>;
  sendEvent(credentials: FubCredentials, event: FubEvent, options?: FubRequestOptions): Promise<FubAnswer>;
  findEvent(credentials: FubCredentials, mark: FubEventMark, options?: FubRequestOptions): Promise<FubLookup>;
}

/** How long one request may take, body included, before it counts as unavailable. */
export const FUB_TIMEOUT_MS = 10_000;
/** FUB's edge reportedly refuses requests without one; it also tells FUB's support who calls. */
const USER_AGENT = 'li-net-to-seller/0.1 (+Follow Up Boss lead sync)';
/** What to wait after a 429 that names no Retry-After: FUB's rate-limit window. */
const DEFAULT_RETRY_AFTER_SECONDS = 10;

const personSchema = z.looseObject({ id: z.number().int().positive() });
// Pages of a collection (fact sheet §3, FUB's pagination): newest first, `next` for the next page.
const metadataSchema = z.looseObject({ next: z.string().nullish() }).optional();
const peoplePageSchema = z.looseObject({ _metadata: metadataSchema, people: z.array(personSchema) });
const eventsPageSchema = z.looseObject({
  _metadata: metadataSchema,
  events: z.array(z.looseObject({ description: z.string().nullish() })),
});
/** The most a lookup pages through one person's events of a type (100 a page) before posting anyway. */
const MAX_EVENT_PAGES = 5;
const identitySchema = z.looseObject({
  account: z.looseObject({ id: z.number().int(), domain: z.string(), name: z.string().optional() }),
  user: z.looseObject({ name: z.string(), email: z.string() }),
});
// FUB's errors carry `errorMessage`; its registered-systems-only endpoints answer `error`.
const errorSchema = z.looseObject({ errorMessage: z.string().optional(), error: z.string().optional() });

interface RawAnswer {
  status: number;
  headers: Headers;
  body: string;
}

/** A query string with spaces as %20: a `+` is a space only to form decoders (a `+` of an e-mail is %2B). */
const queryString = (params: Record<string, string>): string =>
  new URLSearchParams(params).toString().replaceAll('+', '%20');

/** HTTP Basic credentials: the key as user name and an empty password (the colon matters). */
const basicCredentials = (apiKey: string): string => Buffer.from(`${apiKey}:`, 'utf8').toString('base64');

export function fubClient(baseUrl: string, fetchImpl: typeof fetch = fetch): FubClient {
  /** One request; an answer whatever its status, or the `unavailable` answer when there is none. */
  async function request(
    credentials: FubCredentials,
    path: string,
    init: { method: 'GET' } | { method: 'POST'; body: string },
    { timeoutMs = FUB_TIMEOUT_MS }: FubRequestOptions = {},
  ): Promise<RawAnswer | FubFailure> {
    const headers: Record<string, string> = {
      Authorization: `Basic ${basicCredentials(credentials.apiKey)}`,
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
    };
    if (init.method === 'POST') headers['Content-Type'] = 'application/json';
    if (credentials.system && credentials.systemKey) {
      headers['X-System'] = credentials.system;
      headers['X-System-Key'] = credentials.systemKey;
    }
    try {
      const response = await fetchImpl(endpoint(baseUrl, path), {
        ...init,
        headers,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // A 204 has no body to read, and none is parsed.
      const body = response.status === 204 ? '' : await response.text();
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      const message = isTimeout(error)
        ? `Follow Up Boss did not answer within ${timeoutMs / 1000} s`
        : 'Could not reach Follow Up Boss';
      return { kind: 'unavailable', status: null, message };
    }
  }

  /** The answer to any status other than the successes the caller handles. */
  function failure(answer: RawAnswer, credentials: FubCredentials, what: string): FubFailure {
    const { status } = answer;
    if (status === 429) {
      const retryAfterSeconds = parseRetryAfter(answer.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_SECONDS;
      return { kind: 'rate-limited', status, retryAfterSeconds };
    }
    if (status >= 500) return { kind: 'unavailable', status, message: `Follow Up Boss is not answering (${status})` };
    if (status < 400) {
      return { kind: 'unavailable', status, message: `Follow Up Boss answered ${status} to ${what}` };
    }
    const parsed = errorSchema.safeParse(jsonBody(answer.body));
    const text = (parsed.success ? (parsed.data.errorMessage ?? parsed.data.error) : undefined) ?? answer.body;
    const detail = safeDetail(text, [credentials.apiKey, basicCredentials(credentials.apiKey)]) || `HTTP ${status}`;
    if (status === 401) return { kind: 'refused', status, message: `Follow Up Boss refused the API key: ${detail}` };
    if (status === 403) return { kind: 'refused', status, message: `Follow Up Boss refused access: ${detail}` };
    return { kind: 'rejected', status, message: `Follow Up Boss rejected ${what} (${status}): ${detail}` };
  }

  /** A page of a GET collection, parsed; `unavailable` when the answer is not one. */
  async function list<T>(
    credentials: FubCredentials,
    path: string,
    schema: z.core.$ZodType<T>,
    options: FubRequestOptions | undefined,
  ): Promise<{ ok: true; page: T } | { ok: false; answer: FubFailure }> {
    const answer = await request(credentials, path, { method: 'GET' }, options);
    if ('kind' in answer) return { ok: false, answer };
    if (answer.status !== 200) return { ok: false, answer: failure(answer, credentials, 'the lookup') };
    const parsed = z.safeParse(schema, jsonBody(answer.body));
    if (parsed.success) return { ok: true, page: parsed.data };
    return {
      ok: false,
      answer: { kind: 'unavailable', status: 200, message: 'Follow Up Boss answered an unreadable list' },
    };
  }

  return {
    async identity(credentials, options) {
      const answer = await request(credentials, '/v1/identity', { method: 'GET' }, options);
      if ('kind' in answer) return { ok: false, answer };
      if (answer.status !== 200) return { ok: false, answer: failure(answer, credentials, 'the key check') };
      const parsed = identitySchema.safeParse(jsonBody(answer.body));
      if (!parsed.success) {
        return {
          ok: false,
          answer: { kind: 'unavailable', status: 200, message: 'Follow Up Boss answered without its account details' },
        };
      }
      const { account, user } = parsed.data;
      return {
        ok: true,
        identity: {
          accountId: account.id,
          // The documented example has no account name; the subdomain names the account then.
          accountName: account.name ?? account.domain,
          domain: account.domain,
          userName: user.name,
          userEmail: user.email,
        },
      };
    },

    async sendEvent(credentials, event, options) {
      const answer = await request(credentials, '/v1/events', { method: 'POST', body: JSON.stringify(event) }, options);
      if ('kind' in answer) return answer;
      if (answer.status === 204) return { kind: 'archived', status: 204 };
      if (answer.status === 200 || answer.status === 201) {
        const person = personSchema.safeParse(jsonBody(answer.body));
        if (!person.success) {
          return {
            kind: 'unavailable',
            status: answer.status,
            message: `Follow Up Boss answered ${answer.status} without a person id`,
          };
        }
        return answer.status === 201
          ? { kind: 'created', status: 201, personId: person.data.id }
          : { kind: 'updated', status: 200, personId: person.data.id };
      }
      return failure(answer, credentials, 'the lead');
    },

    // The person is searched by e-mail (FUB matches an event's person by it), then each match's
    // events of the type, newest first, for the reference. `GET /v1/events` has its own, smaller
    // rate limit (the `events` context): a 429 there is a failure like any other.
    async findEvent(credentials, { email, type, reference }, options) {
      const people = await list(
        credentials,
        `/v1/people?${queryString({ email, includeTrash: 'true', limit: '100' })}`,
        peoplePageSchema,
        options,
      );
      if (!people.ok) return people.answer;
      for (const person of people.page.people) {
        const query: Record<string, string> = { personId: String(person.id), type, limit: '100' };
        for (let pageNumber = 0; pageNumber < MAX_EVENT_PAGES; pageNumber += 1) {
          const events = await list(credentials, `/v1/events?${queryString(query)}`, eventsPageSchema, options);
          if (!events.ok) return events.answer;
          if (events.page.events.some((event) => event.description?.includes(reference))) {
            return { kind: 'found', status: 200, personId: person.id };
          }
          const next = events.page._metadata?.next;
          if (!next) break;
          query.next = next;
        }
      }
      return { kind: 'missing' };
    },
  };
}
