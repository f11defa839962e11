/**
 * A local stand-in for a RESO Web API server (an MLS feed such as OneKey MLS's), served by
 * node:http on 127.0.0.1 and a random port, over an in-memory list of Property records.
 *
 * - `POST /token`: OAuth2 client credentials (RFC 6749 §4.4): `application/x-www-form-urlencoded`
 *   with `grant_type=client_credentials` and the client id and secret in the body or as HTTP
 *   Basic; answers `{ access_token, token_type: "Bearer", expires_in }`, 400 unsupported_grant_type
 *   or invalid_request, 401 invalid_client.
 * - `GET /odata/Property`: Bearer auth (an issued, unexpired token or the static token; else 401
 *   with `WWW-Authenticate: Bearer error="invalid_token"`), and the OData the client uses, really
 *   evaluated: `$filter` with `and`, `or`, `not`, parentheses and `eq ne gt ge lt le` over string
 *   ('Closed', with '' for a quote), Edm.Date (2025-03-01), Edm.DateTimeOffset
 *   (2025-03-01T12:00:00Z), number and null literals; `$select`; `$orderby` (`Field asc|desc`, …);
 *   `$top` (capped at `maxTop`, the server's page size when absent) and `$skip`. A page answers
 *   `{ "@odata.context", value, "@odata.nextLink"? }`, the link carrying the next `$skip`. Unknown
 *   fields and bad syntax answer 400 with an OData error `{ error: { code, message } }`.
 *
 * A test can make it misbehave from the Nth page on: 429 with Retry-After, 5xx, a malformed page
 * (HTML, broken JSON, JSON that is not OData), a connection cut mid-body, a slow answer, or every
 * token expiring (401 until the client fetches a new one).
 *
 * This module is the server and the entry tests import; its parts are under reso/: the records
 * and their generator (records.ts), `/token` and the Bearer check (auth.ts), `$filter`
 * (odata-filter.ts), the page (odata-paging.ts), the planned trouble (trouble.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { header, readBody, startLoopbackServer } from './loopback-server.ts';
import { ODataError, oauthError, odataError, type Answer } from './reso/answers.ts';
import { resoTokens, unauthorized, type TokenRequest } from './reso/auth.ts';
import { answerPage } from './reso/odata-paging.ts';
import type { ResoRecord } from './reso/records.ts';
import { answerInsteadOfPage, spoilPage, troubleQueue, type ResoTrouble, type TroubleOptions } from './reso/trouble.ts';

export type { TokenRequest } from './reso/auth.ts';
export { matches, parseFilter } from './reso/odata-filter.ts';
export {
  closedSale,
  generateClosedSales,
  PROPERTY_FIELDS,
  type GenerateOptions,
  type ResoRecord,
} from './reso/records.ts';
export type { ResoTrouble, TroubleOptions } from './reso/trouble.ts';

export interface PropertyRequest {
  url: string;
  status: number;
  authorization: string | null;
  filter: string | null;
  select: string | null;
  orderby: string | null;
  top: string | null;
  skip: string | null;
}

export interface FakeResoOptions {
  clientId?: string;
  clientSecret?: string;
  /** A long-lived token the server also accepts (the "bearer token" mode of some vendors). */
  staticToken?: string;
  /** expires_in of issued tokens. Default 3600. */
  tokenLifetimeSeconds?: number;
  /** The largest page; also the page when `$top` is absent. Default 200. */
  maxTop?: number;
}

export interface FakeReso {
  /** The service root to configure (…/odata); `/Property` is under it. */
  readonly url: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly staticToken: string;
  /** The records served; tests add, change and remove them freely. */
  properties: ResoRecord[];
  readonly propertyRequests: PropertyRequest[];
  readonly tokenRequests: TokenRequest[];
  /** Page requests that pass authentication meet `trouble` (see TroubleOptions). */
  trouble(trouble: ResoTrouble, options?: TroubleOptions): void;
  /** Forgets requests, planned trouble and issued tokens (the records stay). */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeReso(options: FakeResoOptions = {}): Promise<FakeReso> {
  const {
    clientId = 'li-net-to-seller',
    clientSecret = 'reso-client-secret-0123456789',
    staticToken = 'reso-static-bearer-token-abcdef',
    tokenLifetimeSeconds = 3600,
    maxTop = 200,
  } = options;
  const propertyRequests: PropertyRequest[] = [];
  const tokenRequests: TokenRequest[] = [];
  const tokens = resoTokens({ clientId, clientSecret, staticToken, tokenLifetimeSeconds });
  const planned = troubleQueue();
  let origin = '';

  function property(url: URL, authorization: string | null): Answer {
    if (!tokens.authorized(authorization)) return unauthorized();
    const trouble = planned.next();
    const instead = answerInsteadOfPage(trouble);
    if (instead) return instead;
    if (trouble?.kind === 'expire-tokens') {
      tokens.clear();
      return tokens.authorized(authorization) ? property(url, authorization) : unauthorized();
    }
    let answer: Answer;
    try {
      answer = answerPage(url, properties(), origin, maxTop);
    } catch (failure) {
      if (failure instanceof ODataError) return odataError(400, 'BadRequest', failure.message);
      throw failure;
    }
    return spoilPage(answer, trouble);
  }

  const state: { properties: ResoRecord[] } = { properties: [] };
  const properties = () => state.properties;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = (await readBody(request)).toString('utf8');
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', origin);
    let answer: Answer;
    if (url.pathname === '/token') {
      if (method !== 'POST') answer = oauthError(405, 'invalid_request', 'Use POST');
      else {
        const result = tokens.token(body, request.headers);
        tokenRequests.push(result.request);
        answer = result.answer;
      }
    } else if (url.pathname === '/odata/Property') {
      const authorization = header(request.headers, 'authorization') ?? null;
      answer =
        method === 'GET' ? property(url, authorization) : odataError(405, 'MethodNotAllowed', 'Only GET is allowed');
      propertyRequests.push({
        url: url.href,
        status: answer.status,
        authorization,
        filter: url.searchParams.get('$filter'),
        select: url.searchParams.get('$select'),
        orderby: url.searchParams.get('$orderby'),
        top: url.searchParams.get('$top'),
        skip: url.searchParams.get('$skip'),
      });
    } else {
      answer = odataError(404, 'NotFound', `No resource at ${url.pathname}`);
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'odata-version': '4.0',
      ...answer.headers,
    });
    if (answer.cutAfter !== undefined) {
      response.write(answer.body.slice(0, answer.cutAfter));
      // Let the first half reach the client, then break the connection mid-body.
      setTimeout(() => response.destroy(), 10);
      return;
    }
    response.end(answer.body);
  }

  const server = await startLoopbackServer(handle);
  origin = server.origin;

  return {
    url: `${origin}/odata`,
    tokenUrl: `${origin}/token`,
    clientId,
    clientSecret,
    staticToken,
    get properties() {
      return state.properties;
    },
    set properties(records: ResoRecord[]) {
      state.properties = records;
    },
    propertyRequests,
    tokenRequests,
    trouble(trouble, options) {
      planned.plan(trouble, options);
    },
    reset() {
      propertyRequests.length = 0;
      tokenRequests.length = 0;
      planned.clear();
      tokens.clear();
    },
    close: () => server.close(),
  };
}
