/**
 * The test WebSocket-to-TCP proxy itself: it pipes bytes both ways and reaches nothing but this
 * machine. (No outside address is ever connected to: it is refused before any socket is opened.)
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { openNeon } from '../../src/platform/db.ts';
import { startWsProxy, toBuffer, type RunningWsProxy } from '../support/ws-proxy.ts';

/** Opens a WebSocket; answers the HTTP status of a refused upgrade, or the open socket. */
function open(url: string): Promise<{ refused: number } | { socket: WebSocket }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ refused: response.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('ws-proxy', () => {
  let proxy: RunningWsProxy;
  let echo: Server;
  let echoPort: number;

  beforeAll(async () => {
    proxy = await startWsProxy();
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const address: string | AddressInfo | null = echo.address();
    if (typeof address !== 'object' || address === null) throw new Error('echo server has no address');
    echoPort = address.port;
  });

  afterAll(async () => {
    await proxy.stop();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it('pipes binary frames to a local TCP server and back', async () => {
    const opened = await open(`ws://${proxy.address}/v1?address=127.0.0.1:${echoPort}`);
    if (!('socket' in opened)) throw new Error(`refused with ${opened.refused}`);
    const payload = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
    const received = new Promise<Buffer>((resolve) =>
      opened.socket.once('message', (data, isBinary) => {
        expect(isBinary).toBe(true);
        resolve(toBuffer(data));
      }),
    );
    opened.socket.send(payload, { binary: true });
    expect(Buffer.compare(await received, payload)).toBe(0);
    opened.socket.close();
  });

  it.each([
    ['an outside host', 'example.com:5432'],
    ['an outside IP address', '10.0.0.1:5432'],
    ['the wildcard address', '0.0.0.0:5432'],
    ['no port', '127.0.0.1'],
    ['a port out of range', '127.0.0.1:70000'],
    ['nothing', ''],
  ])('refuses %s with 400', async (_label, address) => {
    expect(await open(`ws://${proxy.address}/v1?address=${encodeURIComponent(address)}`)).toEqual({ refused: 400 });
  });

  it('refuses any path but /v1', async () => {
    expect(await open(`ws://${proxy.address}/v2?address=127.0.0.1:${echoPort}`)).toEqual({ refused: 400 });
  });

  it('carries the Neon driver to the test PostgreSQL server (SCRAM auth, transactions)', async () => {
    const db = openNeon(inject('postgresUrl'), { wsProxy: inject('wsProxy') });
    try {
      const [row] = await db.query<{ version: string; n: number }>(
        "SELECT current_setting('server_version') AS version, $1::int8 AS n",
        [42],
      );
      expect(row?.version).toMatch(/^15\./);
      expect(row?.n).toBe(42);
      // Both statements of a transaction run in the same server transaction.
      const ids = await db.transaction(async (tx) => {
        const [first] = await tx.query<{ id: number }>('SELECT txid_current() AS id');
        const [second] = await tx.query<{ id: number }>('SELECT txid_current() AS id');
        return [first?.id, second?.id];
      });
      expect(ids[0]).toEqual(expect.any(Number));
      expect(ids[1]).toBe(ids[0]);
    } finally {
      await db.close();
    }
  });
});
