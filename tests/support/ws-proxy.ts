/**
 * A WebSocket-to-TCP proxy, as Neon's wsproxy does it: a client opens
 * ws://127.0.0.1:PORT/v1?address=host:port and every binary frame is written to a TCP connection to
 * host:port, every chunk read from it is sent back as a binary frame. Only local addresses are
 * accepted, so the proxy cannot be used to reach anything beyond this machine.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

export interface RunningWsProxy {
  /** "127.0.0.1:PORT", the value openNeon's `wsProxy` option takes. */
  address: string;
  port: number;
  /**
   * Drops every open connection at once, both ways and without a goodbye, as a network fault or a
   * restarted pooler does: the client's WebSocket is terminated and the TCP link to the database
   * destroyed. Answers how many were cut.
   */
  cut(): number;
  /** Refuses new connections (503) until resume(): the database is unreachable meanwhile. */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

const ALLOWED_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** The target named by `?address=host:port`, or a reason to refuse it. */
export function parseTarget(request: IncomingMessage): { host: string; port: number } | { refused: string } {
  const url = new URL(request.url ?? '/', 'ws://proxy');
  if (url.pathname !== '/v1') return { refused: `unknown path ${url.pathname}` };
  const address = url.searchParams.get('address') ?? '';
  const match = /^(.+):(\d{1,5})$/.exec(address);
  if (!match) return { refused: `address must be host:port, got "${address}"` };
  const host = match[1] ?? '';
  const port = Number(match[2]);
  if (!ALLOWED_HOSTS.has(host)) return { refused: `only 127.0.0.1 and localhost are allowed, got ${host}` };
  if (port < 1 || port > 65535) return { refused: `port out of range: ${port}` };
  return { host: '127.0.0.1', port };
}

export const toBuffer = (data: RawData): Buffer =>
  Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);

/** Pipes `socket` to host:port; answers a function that drops both ends at once. */
function pipe(socket: WebSocket, host: string, port: number): () => void {
  const tcp = connect({ host, port });
  tcp.setNoDelay(true);
  // Writes before 'connect' are queued by net.Socket, so frames that arrive early are not lost.
  socket.on('message', (data) => {
    if (!tcp.destroyed) tcp.write(toBuffer(data));
  });
  tcp.on('data', (chunk) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(chunk, { binary: true });
    // Backpressure: stop reading from the database while the client is behind.
    if (socket.bufferedAmount > 1024 * 1024) {
      tcp.pause();
      const resume = setInterval(() => {
        if (socket.readyState !== socket.OPEN || socket.bufferedAmount < 256 * 1024) {
          clearInterval(resume);
          tcp.resume();
        }
      }, 5);
    }
  });
  socket.on('close', () => tcp.end());
  socket.on('error', () => tcp.destroy());
  tcp.on('close', () => {
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close();
  });
  tcp.on('error', () => {
    if (socket.readyState === socket.OPEN) socket.close(1011, 'upstream connection failed');
    else socket.terminate();
  });
  return () => {
    tcp.destroy();
    socket.terminate();
  };
}

export async function startWsProxy(): Promise<RunningWsProxy> {
  const http = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket upgrade required\n');
  });
  const wss = new WebSocketServer({ noServer: true });
  const links = new Set<() => void>();
  let paused = false;
  http.on('upgrade', (request, socket, head) => {
    if (paused) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = parseTarget(request);
    if ('refused' in target) {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${target.refused}\n`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const drop = pipe(ws, target.host, target.port);
      links.add(drop);
      ws.once('close', () => links.delete(drop));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const bound: string | AddressInfo | null = http.address();
  if (typeof bound !== 'object' || bound === null) throw new Error('The WebSocket proxy has no TCP address');
  const { port } = bound;
  return {
    address: `127.0.0.1:${port}`,
    port,
    cut() {
      const open = [...links];
      links.clear();
      for (const drop of open) drop();
      return open.length;
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
    },
    async stop() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
