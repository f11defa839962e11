/**
 * The answers the fake RESO server sends: the shape a handler returns, and the two error bodies
 * (OData's `{ error: { code, message } }` and OAuth2's `{ error, error_description }`).
 */
export interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Send this much of the body, then destroy the connection. */
  cutAfter?: number;
}

/** Bad OData syntax or an unknown field: answered 400 by the Property route. */
export class ODataError extends Error {}

export const odataError = (
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): Answer => ({
  status,
  body: JSON.stringify({ error: { code, message } }),
  headers,
});

export const oauthError = (
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
): Answer => ({
  status,
  body: JSON.stringify({ error, error_description: description }),
  headers: { 'cache-control': 'no-store', ...headers },
});
