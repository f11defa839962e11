/**
 * What a test can make the fake RESO server do wrong from the Nth page request on: the kinds of
 * trouble, the queue of planned trouble, and how each kind turns a page request's answer.
 */
import { odataError, type Answer } from './answers.ts';

/** Something to go wrong with a page request that passed authentication. */
export type ResoTrouble =
  /** 429 with Retry-After when given (seconds or an HTTP date). */
  | { kind: 'rate-limit'; retryAfter?: number | string }
  /** 500 by default, or another status. */
  | { kind: 'server-error'; status?: number }
  /** 200 with a page that is an HTML error page, truncated JSON, or JSON without `value`. */
  | { kind: 'malformed'; body: 'html' | 'broken-json' | 'not-odata' }
  /** 200, half of the page, then the connection is destroyed. */
  | { kind: 'cut' }
  /** Answers normally, after `ms`. */
  | { kind: 'slow'; ms: number }
  /** Every issued token expires now: this request and later ones answer 401 until a new token. */
  | { kind: 'expire-tokens' };

export interface TroubleOptions {
  /** How many page requests meet the trouble (Infinity: until reset). Default 1. */
  times?: number;
  /** Page requests answered normally first (2: the third page request meets it). Default 0. */
  afterPages?: number;
}

interface PlannedTrouble {
  trouble: ResoTrouble;
  times: number;
  afterPages: number;
}

/** Planned trouble, met in order by the page requests that pass authentication. */
export interface TroubleQueue {
  plan(trouble: ResoTrouble, options?: TroubleOptions): void;
  /** The trouble the current page request meets, if any (and counts it). */
  next(): ResoTrouble | undefined;
  clear(): void;
}

export function troubleQueue(): TroubleQueue {
  const planned: PlannedTrouble[] = [];
  return {
    plan(trouble, { times = 1, afterPages = 0 } = {}) {
      planned.push({ trouble, times, afterPages });
    },
    next() {
      const next = planned[0];
      if (!next) return undefined;
      if (next.afterPages > 0) {
        next.afterPages -= 1;
        return undefined;
      }
      next.times -= 1;
      if (next.times <= 0) planned.shift();
      return next.trouble;
    },
    clear() {
      planned.length = 0;
    },
  };
}

/** The answer in place of the page for trouble that answers before reading it (429, 5xx). */
export function answerInsteadOfPage(trouble: ResoTrouble | undefined): Answer | undefined {
  switch (trouble?.kind) {
    case 'rate-limit':
      return odataError(429, 'TooManyRequests', 'Rate limit exceeded. Try again later.', {
        ...(trouble.retryAfter === undefined ? {} : { 'retry-after': String(trouble.retryAfter) }),
      });
    case 'server-error':
      return odataError(trouble.status ?? 500, 'InternalServerError', 'An unexpected error occurred.');
    default:
      return undefined;
  }
}

/** The page's answer as the trouble spoils it: malformed, cut mid-body or late. */
export function spoilPage(answer: Answer, trouble: ResoTrouble | undefined): Answer {
  switch (trouble?.kind) {
    case 'malformed':
      if (trouble.body === 'html') {
        return {
          status: 200,
          body: '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
          headers: { 'content-type': 'text/html' },
        };
      }
      if (trouble.body === 'broken-json') return { status: 200, body: answer.body.slice(0, answer.body.length / 2) };
      return { status: 200, body: JSON.stringify({ results: [], message: 'maintenance' }) };
    case 'cut':
      return { ...answer, cutAfter: Math.floor(answer.body.length / 2) };
    case 'slow':
      return { ...answer, delayMs: trouble.ms };
    default:
      return answer;
  }
}
