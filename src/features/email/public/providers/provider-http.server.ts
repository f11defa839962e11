/**
 * What the Resend and Mailgun clients share: one POST with a time limit, network failures and
 * timeouts turned into retryable ProviderErrors, and the provider's own error text made safe to
 * record (credentials redacted, length bounded).
 */
import { ProviderError } from '../email.server.ts';

/** How long a provider may take to answer one message before the attempt counts as failed. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;
/** Resend refuses requests without a User-Agent; it also tells providers' support who is calling. */
export const USER_AGENT = 'li-net-to-seller/0.1 (+e-mail delivery)';
const MAX_DETAIL_LENGTH = 500;

export interface HttpClientOptions {
  /** The API's origin (from env, so tests can point it at a fake). */
  baseUrl: string;
  /** Default DEFAULT_PROVIDER_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Default the global fetch. */
  fetch?: typeof fetch;
}

export interface ProviderAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: string;
}

/** `path` under `baseUrl`, whatever trailing slash the configured URL has. */
export const endpoint = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, '')}${path}`;

function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

export const isTimeout = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'name' in error && error.name === 'TimeoutError';

/**
 * POSTs to `url` and answers status, headers and body text, whatever the status. Rejects only
 * with a retryable ProviderError: when the provider cannot be reached or does not answer (the
 * whole body included) within `timeoutMs`.
 */
export async function postToProvider(
  label: string,
  url: string,
  // A FormData body sets its own multipart Content-Type (with the boundary): give none for it.
  init: { headers: Record<string, string>; body: string | FormData },
  { timeoutMs = DEFAULT_PROVIDER_TIMEOUT_MS, fetch: fetchImpl = fetch }: Omit<HttpClientOptions, 'baseUrl'>,
): Promise<ProviderAnswer> {
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'User-Agent': USER_AGENT, Accept: 'application/json', ...init.headers },
      body: init.body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    return { status: response.status, statusText: response.statusText, headers: response.headers, body };
  } catch (error) {
    if (isTimeout(error)) {
      throw new ProviderError(`${label} did not answer within ${timeoutMs / 1000} s`, {
        retryable: true,
        cause: error,
      });
    }
    throw new ProviderError(`${label} could not be reached (${networkDetail(error)})`, {
      retryable: true,
      cause: error,
    });
  }
}

/** The body as JSON, or undefined when it is not JSON (a proxy's HTML page, "Forbidden"). */
export function jsonBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Provider text fit for last_error: each secret replaced, whitespace collapsed, length bounded. */
export function safeDetail(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret) clean = clean.split(secret).join('[redacted]');
  }
  clean = clean.replace(/\s+/g, ' ').trim();
  return clean.length > MAX_DETAIL_LENGTH ? `${clean.slice(0, MAX_DETAIL_LENGTH)}…` : clean;
}

/** Statuses worth trying again later: timeouts, rate limits and the provider's own failures. */
export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 425 || status === 429 || status >= 500;
