/**
 * The API served over real HTTP (Node's http server through @hono/node-server) on 127.0.0.1 and a
 * random port, as the local server and the Netlify Function serve it.
 */
import { request as httpRequest } from 'node:http';
import type { AppDeps } from '../../src/app/api-app.ts';
import { createApi } from '../../src/app/app.ts';
import { listen } from '../../src/app/local-server.ts';
import { createSiteServer, type SiteFolder } from '../../src/app/site-server.ts';
import { loopbackOnlyResolve } from './loopback-resolver.ts';

export interface RunningApi {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** fetch() against this server: `path` starts with /api. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs `body` as JSON. */
  postJson(path: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** With `siteDir`, the whole local site (src/app/site-server.ts) over that build, as `npm start` serves it. */
export async function startApi(
  deps: AppDeps,
  { siteDir }: { siteDir?: string | SiteFolder } = {},
): Promise<RunningApi> {
  // Webhooks reach only this machine's loopback, whatever address a test (or the fuzz suite) saves.
  const withDeps: AppDeps = { ...deps, webhooks: { resolve: loopbackOnlyResolve, ...deps.webhooks } };
  const app = siteDir === undefined ? createApi(withDeps) : createSiteServer(withDeps, siteDir);
  const { server, url: origin } = await listen(app, 0);
  const port = Number(new URL(origin).port);
  const fetchApi = (path: string, init?: RequestInit) => fetch(`${origin}${path}`, init);
  return {
    origin,
    port,
    fetch: fetchApi,
    postJson: (path, body) =>
      fetchApi(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request written by hand with node:http, for what fetch() cannot send: a body in chunked
 * transfer encoding with no Content-Length, streamed in pieces.
 */
export function rawRequest(
  origin: string,
  path: string,
  options: { method: string; headers?: Record<string, string>; chunks?: (string | Buffer)[] },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${origin}${path}`,
      { method: options.method, headers: options.headers },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (chunk: Buffer) => parts.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(parts).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    // The server may answer (413) and close before it has read every chunk; that is not a failure.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (const chunk of options.chunks ?? []) request.write(chunk);
    request.end();
  });
}
