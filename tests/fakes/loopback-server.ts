/**
 * What every fake of an outside service shares: a node:http server on 127.0.0.1 and a free port
 * (or a fixed one, for a fake started on its own beside an e2e server),
 * an async handler whose failure answers 500, a body reader, and a close that drops keep-alives.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';

export interface LoopbackServer {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  close(): Promise<void>;
}

export async function startLoopbackServer(
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void> | void,
  port = 0,
): Promise<LoopbackServer> {
  const server = createServer((request, response) => {
    Promise.resolve(handle(request, response)).catch((failure: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(failure));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('A fake server is not on a TCP port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((failure) => (failure ? reject(failure) : resolve()));
      }),
  };
}

export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** A request header's first value. */
export const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Trouble planned for a fake's next requests: each plan lasts `times` requests (Infinity: until cleared). */
export interface TroubleQueue<Trouble> {
  plan(trouble: Trouble, times: number): void;
  /** The trouble of the next request, if any; counts it against its plan. */
  next(): Trouble | undefined;
  clear(): void;
}

export function troubleQueue<Trouble>(): TroubleQueue<Trouble> {
  const planned: { trouble: Trouble; times: number }[] = [];
  return {
    plan: (trouble, times) => {
      planned.push({ trouble, times });
    },
    next() {
      const next = planned[0];
      if (!next) return undefined;
      next.times -= 1;
      if (next.times <= 0) planned.shift();
      return next.trouble;
    },
    clear: () => {
      planned.length = 0;
    },
  };
}
