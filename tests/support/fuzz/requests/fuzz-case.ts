/** A request of the fuzz, and how a failing run reports it. */
import { type Caller } from './operations.ts';

/** A request of the fuzz, and what it is, for the report of a failing case. */
export interface FuzzCase {
  caller: Caller;
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** The JSON value of a body sent as application/json, for the document's check of an accepted one. */
  json?: unknown;
  /** valid, or what was broken. */
  what: string;
}

/** A case as a failing run reports it: short enough to read (a 1 MB body is shown by its size). */
export function describeCase(fuzzCase: FuzzCase): string {
  const { body } = fuzzCase;
  let shown: string;
  if (body === undefined) shown = '(none)';
  else if (typeof body === 'string') shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
  else if (body instanceof Uint8Array) shown = `bytes ${Buffer.from(body).toString('hex').slice(0, 200)}`;
  else shown = `multipart ${JSON.stringify([...body.keys()])}`;
  return [
    `${fuzzCase.method} ${fuzzCase.path.length > 300 ? `${fuzzCase.path.slice(0, 300)}…` : fuzzCase.path}`,
    `as ${fuzzCase.caller}: ${fuzzCase.what}`,
    `headers ${JSON.stringify(fuzzCase.headers)}`,
    `body ${shown}`,
  ].join('\n');
}
