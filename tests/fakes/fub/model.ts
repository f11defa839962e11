/**
 * The shapes the fake Follow Up Boss holds and answers with: accounts, people, recorded events,
 * rate-limit contexts and planned trouble, and the JSON and `errorMessage` answers.
 */
import * as z from 'zod';

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

/** A trouble as POST /__fake/trouble sends it. */
export const troubleSchema: z.ZodType<FubTrouble> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rate-limit'), retryAfter: z.union([z.number(), z.string()]).optional() }),
  z.object({ kind: z.literal('server-error'), status: z.number().int().optional() }),
  z.object({ kind: z.literal('slow'), ms: z.number().min(0) }),
  z.object({ kind: z.literal('drop') }),
]);

export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
  drop?: boolean;
}

export const JSON_TYPE = 'application/json; charset=UTF-8';

export const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(body),
  headers: { 'content-type': JSON_TYPE, ...headers },
});
export const errorMessage = (status: number, text: string, headers?: Record<string, string>): Answer =>
  json(status, { errorMessage: text }, headers);
