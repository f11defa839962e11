/**
 * The fake RESO server's authentication: `POST /token` (OAuth2 client credentials, RFC 6749 §4.4,
 * with the client id and secret in the form body or as HTTP Basic), the tokens it issued and when
 * they expire, and the Bearer check of the Property route (an issued, unexpired token or the
 * static token; else 401 with `WWW-Authenticate: Bearer error="invalid_token"`).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { header } from '../loopback-server.ts';
import { oauthError, odataError, type Answer } from './answers.ts';

export interface TokenRequest {
  status: number;
  /** How the client authenticated: 'basic', 'body' or null (no credentials). */
  clientAuth: 'basic' | 'body' | null;
  grantType: string | null;
  scope: string | null;
}

export interface ResoCredentials {
  clientId: string;
  clientSecret: string;
  staticToken: string;
  tokenLifetimeSeconds: number;
}

export interface ResoTokens {
  /** Answers a `POST /token` with this body and these headers. */
  token(body: string, headers: IncomingHttpHeaders): { answer: Answer; request: TokenRequest };
  /** Whether an Authorization header carries a token the Property route accepts. */
  authorized(authorization: string | null): boolean;
  /** Forgets every issued token (they all expire now). */
  clear(): void;
}

export function resoTokens({ clientId, clientSecret, staticToken, tokenLifetimeSeconds }: ResoCredentials): ResoTokens {
  /** Issued token → when it expires (ms). */
  const tokens = new Map<string, number>();

  function token(body: string, headers: IncomingHttpHeaders): { answer: Answer; request: TokenRequest } {
    const form = new URLSearchParams(body);
    const request: TokenRequest = {
      status: 0,
      clientAuth: null,
      grantType: form.get('grant_type'),
      scope: form.get('scope'),
    };
    const done = (answer: Answer) => {
      request.status = answer.status;
      return { answer, request };
    };
    const contentType = header(headers, 'content-type') ?? '';
    if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return done(oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded'));
    }
    const basic = /^Basic (.+)$/i.exec(header(headers, 'authorization') ?? '');
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    if (basic) {
      const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
      request.clientAuth = 'basic';
    } else if (id !== null) {
      request.clientAuth = 'body';
    }
    if (request.grantType !== 'client_credentials') {
      return done(oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported'));
    }
    if (id !== clientId || secret !== clientSecret) {
      return done(
        oauthError(
          401,
          'invalid_client',
          'Client authentication failed',
          basic ? { 'www-authenticate': 'Basic realm="reso"' } : undefined,
        ),
      );
    }
    const accessToken = randomBytes(24).toString('hex');
    tokens.set(accessToken, Date.now() + tokenLifetimeSeconds * 1000);
    return done({
      status: 200,
      body: JSON.stringify({ access_token: accessToken, token_type: 'Bearer', expires_in: tokenLifetimeSeconds }),
      headers: { 'cache-control': 'no-store' },
    });
  }

  function authorized(authorization: string | null): boolean {
    const bearer = /^Bearer (.+)$/.exec(authorization ?? '');
    if (!bearer?.[1]) return false;
    if (bearer[1] === staticToken) return true;
    const expiresAt = tokens.get(bearer[1]);
    return expiresAt !== undefined && Date.now() < expiresAt;
  }

  return { token, authorized, clear: () => tokens.clear() };
}

/** The Property route's answer to a missing, unknown or expired token. */
export const unauthorized = (): Answer =>
  odataError(401, 'Unauthorized', 'The access token is missing, invalid or expired.', {
    'www-authenticate': 'Bearer error="invalid_token"',
  });
