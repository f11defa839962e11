import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { localOrigin } from '../platform/site-origin.ts';

/** Listens on 127.0.0.1:port (0 picks a free port) and resolves once it accepts connections. */
export function listen(app: Hono, port: number, hostname = '127.0.0.1'): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
      resolvePromise({ server, url: localOrigin(hostname, info.port) });
    });
    server.once('error', reject);
  });
}
