/** One request to the RESO server (the token endpoint or the feed), with its time limit. */
import { ResoError } from './reso-error.server.ts';

const USER_AGENT = 'li-net-to-seller/0.1 (+sold homes)';

export interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** One request, whatever its status; rejects only when there is no complete answer. */
export type Send = (url: string, init: RequestInit, label: string) => Promise<Answer>;

function networkDetail(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string') return cause.code;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

const isTimeout = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'name' in error && error.name === 'TimeoutError';

/** The Send of a client: its fetch, its time limit, and its redaction of secrets in messages. */
export function resoSender(options: {
  fetchImpl: typeof fetch;
  timeoutMs: number;
  safe: (text: string) => string;
}): Send {
  const { fetchImpl, timeoutMs, safe } = options;
  return async function send(url, init, label) {
    try {
      const response = await fetchImpl(url, {
        ...init,
        headers: { 'User-Agent': USER_AGENT, Accept: 'application/json', ...init.headers },
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await response.text();
      return { status: response.status, headers: response.headers, body };
    } catch (error) {
      if (isTimeout(error)) {
        throw new ResoError(`${label} did not answer within ${timeoutMs / 1000} s`, { kind: 'timeout', cause: error });
      }
      throw new ResoError(`${label} could not be reached (${safe(networkDetail(error))})`, {
        kind: 'network',
        cause: error,
      });
    }
  };
}
