/**
 * The RESO feed's access token (RESO RCP-026): OAuth2 client credentials (`POST tokenUrl`,
 * `application/x-www-form-urlencoded` `grant_type=client_credentials` with the client id and secret
 * in the body or as HTTP Basic, answered `{ access_token, token_type, expires_in }`; the token is
 * kept until shortly before it expires) or a static bearer token some vendors issue instead.
 */
import * as z from 'zod';
import { errorDetail, jsonOrUndefined, ResoError } from './reso-error.server.ts';
import type { Send } from './reso-http.server.ts';

/** A cached token is renewed this long before its expires_in runs out (at most a tenth of it). */
const TOKEN_EXPIRY_MARGIN_SECONDS = 60;

export interface ResoCredentials {
  /** OAuth2 token endpoint; with clientId and clientSecret selects the client credentials grant. */
  tokenUrl?: string;
  clientId?: string;
  clientSecret?: string;
  /** Send the client id and secret as HTTP Basic instead of in the form body (RFC 6749 §2.3.1). */
  clientAuth?: 'body' | 'basic';
  /** OAuth2 scope, when the server wants one (often "api" or "OData"). */
  scope?: string;
  /** A static access token, for servers that issue one instead of client credentials. */
  bearerToken?: string;
}

const tokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  // A missing or unreadable expires_in keeps the token until the API refuses it (401, renewed once).
  expires_in: z.coerce.number().positive().optional().catch(undefined),
});

/** Where the access token comes from: a static one, or the client credentials grant. */
export interface TokenSource {
  /** Can a 401 be cured by asking for a new token? */
  readonly renewable: boolean;
  token(): Promise<string>;
  /** Forgets `token` (the API refused it), so the next token() asks for a new one. */
  invalidate(token: string): void;
}

export function resoTokenSource(
  config: ResoCredentials,
  options: {
    send: Send;
    safe: (text: string) => string;
    /** Each access token issued, so that no error message carries it. */
    hideInErrors: (token: string) => void;
    now: () => number;
  },
): TokenSource {
  const { send, safe, hideInErrors, now } = options;
  const { bearerToken, tokenUrl, clientId, clientSecret, clientAuth = 'body', scope } = config;
  if (tokenUrl && clientId && clientSecret) {
    let cached: { token: string; expiresAt: number } | undefined;
    let pending: Promise<string> | undefined;
    const request = async (): Promise<string> => {
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
      if (clientAuth === 'basic') {
        const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
        headers.Authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
      } else {
        form.set('client_id', clientId);
        form.set('client_secret', clientSecret);
      }
      if (scope) form.set('scope', scope);
      const answer = await send(
        tokenUrl,
        { method: 'POST', headers, body: form.toString() },
        'The RESO token endpoint',
      );
      if (answer.status < 200 || answer.status >= 300) {
        throw new ResoError(
          `The RESO token endpoint answered ${answer.status}: ${safe(errorDetail(answer.body, 'no detail'))}`,
          { kind: answer.status >= 500 || answer.status === 429 ? 'http' : 'auth', status: answer.status },
        );
      }
      const parsed = tokenSchema.safeParse(jsonOrUndefined(answer.body));
      if (!parsed.success) {
        throw new ResoError('The RESO token endpoint answered without an access_token', {
          kind: 'auth',
          status: answer.status,
        });
      }
      const { access_token: token, expires_in: expiresIn } = parsed.data;
      hideInErrors(token);
      const margin = expiresIn === undefined ? 0 : Math.min(TOKEN_EXPIRY_MARGIN_SECONDS, expiresIn / 10);
      cached = {
        token,
        expiresAt: expiresIn === undefined ? Number.POSITIVE_INFINITY : now() + (expiresIn - margin) * 1000,
      };
      return token;
    };
    return {
      renewable: true,
      token() {
        if (cached && now() < cached.expiresAt) return Promise.resolve(cached.token);
        // One request for everybody who asks while it is under way.
        pending ??= request().finally(() => {
          pending = undefined;
        });
        return pending;
      },
      invalidate(token) {
        if (cached?.token === token) cached = undefined;
      },
    };
  }
  if (bearerToken) {
    return { renewable: false, token: () => Promise.resolve(bearerToken), invalidate: () => undefined };
  }
  throw new ResoError('The RESO feed needs a bearer token, or a token URL with a client id and secret', {
    kind: 'config',
  });
}
