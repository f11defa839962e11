/** How a read of the RESO feed fails, and the words of a server's answer fit for an error message. */
import * as z from 'zod';

const MAX_DETAIL_LENGTH = 300;

export type ResoErrorKind =
  /** The configuration cannot work (no credentials, a bad URL). */
  | 'config'
  /** The token endpoint refused, or the API refused the token (401 twice, 403). */
  | 'auth'
  /** Could not connect, or the connection broke. */
  | 'network'
  | 'timeout'
  /** Any other non-2xx answer (4xx, 5xx). */
  | 'http'
  /** 429 with a Retry-After beyond the bound, or too many in a row. */
  | 'rate-limit'
  /** A page that is not JSON or not the OData shape, or a nextLink that cannot be followed. */
  | 'malformed';

/** Why the feed could not be read to the end. The message never carries a credential. */
export class ResoError extends Error {
  override readonly name = 'ResoError';
  readonly kind: ResoErrorKind;
  /** The server's HTTP status, when it answered. */
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    options: { kind: ResoErrorKind; status?: number; retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Text from a server fit for an error message: whitespace collapsed, length bounded. */
export function detail(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL_LENGTH ? `${clean.slice(0, MAX_DETAIL_LENGTH)}…` : clean;
}

const odataErrorSchema = z.object({
  error: z.union([z.object({ code: z.unknown(), message: z.string() }), z.string()]),
  error_description: z.string().optional(),
});

/** An OData (`{ error: { message } }`) or OAuth2 (`{ error, error_description }`) error's words. */
export function errorDetail(body: string, fallback: string): string {
  const parsed = odataErrorSchema.safeParse(jsonOrUndefined(body));
  if (!parsed.success) return detail(body.startsWith('<') ? fallback : body || fallback);
  const { error, error_description: description } = parsed.data;
  return detail(typeof error === 'string' ? [error, description].filter(Boolean).join(': ') : error.message);
}

export function jsonOrUndefined(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
