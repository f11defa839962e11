/**
 * postWebhook against receivers on this machine: what a receiver gets, how its answers are
 * reported (statuses, Retry-After, a redirect not followed, silence, a flood, a closed port), and
 * the SSRF guard refusing loopback, private and rebinding names before any connection is made.
 *
 * No test may send anything beyond this machine, even if postWebhook were broken: every socket
 * this file opens is watched (the tripwire below) and destroyed at its lookup when the address it
 * is about to connect to is not 127.0.0.1 or ::1. Stub resolvers stand in for DNS.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  newMessageId,
  newWebhookSecret,
  webhookHeaders,
} from '../../src/features/webhooks/standard-webhooks.server.ts';
import { postWebhook, type PostOutcome, type Resolve } from '../../src/features/webhooks/post-webhook.server.ts';

/** Addresses a socket of this file was about to connect to, beyond this machine: must stay empty. */
const outside: string[] = [];
const onThisMachine = (address: string) => address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address);

function tripwire(message: unknown) {
  if (typeof message !== 'object' || message === null || !('socket' in message)) return;
  const { socket } = message;
  if (!(socket instanceof Socket)) return;
  // Node emits 'lookup' for each address, then connects only if the socket is still connecting.
  socket.on('lookup', (error: Error | null, address: string | undefined) => {
    if (error || address === undefined || onThisMachine(address)) return;
    outside.push(address);
    socket.destroy(new Error(`the test's tripwire stopped a connection to ${address}`));
  });
}

beforeAll(() => subscribe('net.client.socket', tripwire));
afterAll(() => unsubscribe('net.client.socket', tripwire));
afterEach(() => expect(outside).toEqual([]));

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Receiver {
  /** http://127.0.0.1:PORT (or http://[::1]:PORT) */
  origin: string;
  port: number;
  /** Connections accepted, whether or not a request followed. */
  readonly connections: number;
  readonly requests: Received[];
  close(): Promise<void>;
}

async function startReceiver(
  answer: (request: Received, response: ServerResponse) => void = (_request, response) => response.end('ok'),
  host = '127.0.0.1',
): Promise<Receiver> {
  const requests: Received[] = [];
  let connections = 0;
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      answer(received, response);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The receiver is not on a TCP port');
  return {
    origin: host.includes(':') ? `http://[${host}]:${address.port}` : `http://${host}:${address.port}`,
    port: address.port,
    get connections() {
      return connections;
    },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((failure) => (failure ? reject(failure) : resolve()));
      }),
  };
}

/** A resolver that answers `addresses` for any name, and counts its calls. */
function stubResolver(...addresses: string[]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (hostname: string) => {
    calls.push(hostname);
    return Promise.resolve(
      addresses.map((address) => {
        const family: 4 | 6 = address.includes(':') ? 6 : 4;
        return { address, family };
      }),
    );
  };
  return Object.assign(resolve, { calls });
}

const body = JSON.stringify({ type: 'lead.created', data: { id: 7, town: 'Massapequa', note: 'Café ✓' } });
const signed = () =>
  webhookHeaders({ secrets: [newWebhookSecret()], id: newMessageId(), timestampSeconds: 1_767_225_600, body });
const loopback = { allowLoopback: true };

function expectAnswered(outcome: PostOutcome) {
  if (outcome.kind !== 'answered') throw new Error(`Expected an answer, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('postWebhook delivers', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver((_request, response) => {
      response.writeHead(204).end();
    });
  });
  afterAll(() => receiver.close());

  it('the exact body and headers, with the answer reported', async () => {
    const headers = signed();
    const outcome = expectAnswered(await postWebhook(`${receiver.origin}/hooks/li?tenant=4`, body, headers, loopback));
    expect(outcome).toMatchObject({ status: 204, responseHead: '', retryAfterSeconds: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    const [received] = receiver.requests.slice(-1);
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/hooks/li?tenant=4');
    expect(received?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(received?.headers).toMatchObject({
      ...headers,
      'content-length': String(Buffer.byteLength(body)),
      host: `127.0.0.1:${receiver.port}`,
      // No keep-alive pool: each delivery has its own connection.
      connection: 'close',
    });
  });

  it('to the address its own lookup checked, keeping the name for the Host header', async () => {
    const resolve = stubResolver('127.0.0.1');
    const outcome = await postWebhook(`http://hooks.example.test:${receiver.port}/in`, body, signed(), {
      ...loopback,
      resolve,
    });
    expect(outcome).toMatchObject({ kind: 'answered', status: 204 });
    expect(resolve.calls).toEqual(['hooks.example.test']);
    expect(receiver.requests.at(-1)?.headers.host).toBe(`hooks.example.test:${receiver.port}`);
  });

  it('to ::1 as well as to 127.0.0.1', async () => {
    const receiver6 = await startReceiver((_request, response) => response.writeHead(200).end('v6'), '::1');
    try {
      const outcome = await postWebhook(`${receiver6.origin}/in`, body, signed(), loopback);
      expect(outcome).toMatchObject({ kind: 'answered', status: 200, responseHead: 'v6' });
      expect(receiver6.requests).toHaveLength(1);
    } finally {
      await receiver6.close();
    }
  });
});

describe('postWebhook reports', () => {
  const receivers: Receiver[] = [];
  const receiver = async (answer: (request: Received, response: ServerResponse) => void) => {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  };
  afterAll(() => Promise.all(receivers.map((started) => started.close())));

  it('a 500, with the start of its body', async () => {
    const failing = await receiver((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('database is down');
    });
    const outcome = await postWebhook(`${failing.origin}/in`, body, signed(), loopback);
    expect(outcome).toMatchObject({
      kind: 'answered',
      status: 500,
      responseHead: 'database is down',
      retryAfterSeconds: null,
    });
  });

  it('a 429 with Retry-After in seconds, and a 503 with it as an HTTP date', async () => {
    const seconds = await receiver((_request, response) => {
      response.writeHead(429, { 'retry-after': '120' }).end();
    });
    const date = await receiver((_request, response) => {
      response.writeHead(503, { 'retry-after': new Date(Date.now() + 90_000).toUTCString() }).end();
    });
    expect(await postWebhook(`${seconds.origin}/in`, body, signed(), loopback)).toMatchObject({
      kind: 'answered',
      status: 429,
      retryAfterSeconds: 120,
    });
    const later = expectAnswered(await postWebhook(`${date.origin}/in`, body, signed(), loopback));
    expect(later.status).toBe(503);
    // The date has whole seconds: 89 to 91 seconds away, depending on when in its second it was written.
    expect(later.retryAfterSeconds).toBeGreaterThanOrEqual(88);
    expect(later.retryAfterSeconds).toBeLessThanOrEqual(91);
  });

  it('a redirect as the answer, without following it', async () => {
    const redirects = await receiver((request, response) => {
      response.writeHead(302, { location: `http://${request.headers.host ?? ''}/elsewhere` }).end();
    });
    const outcome = await postWebhook(`${redirects.origin}/in`, body, signed(), loopback);
    expect(outcome).toMatchObject({ kind: 'answered', status: 302 });
    expect(redirects.requests.map(({ url }) => url)).toEqual(['/in']);
    expect(redirects.connections).toBe(1);
  });

  it('a receiver that never answers as a timeout', async () => {
    const silent = await receiver(() => {
      // Reads the request, never answers.
    });
    const outcome = await postWebhook(`${silent.origin}/in`, body, signed(), { ...loopback, timeoutMs: 300 });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'timeout' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(5_000);
    expect(silent.requests).toHaveLength(1);
  });

  it('a flood of 5 MB as an answer, reading only its start and stopping there', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let closedEarly = false;
    const flood = await receiver((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.on('close', () => {
        closedEarly = !response.writableFinished;
      });
      // 80 chunks with a pause between them: the whole flood takes well over 400 ms to send.
      const next = () => {
        if (response.destroyed) return;
        if (written >= 5 * 1024 * 1024) {
          response.end();
          return;
        }
        written += chunk.length;
        response.write(chunk, () => setTimeout(next, 5));
      };
      next();
    });
    const outcome = expectAnswered(await postWebhook(`${flood.origin}/in`, body, signed(), loopback));
    expect(outcome.status).toBe(200);
    expect(Buffer.byteLength(outcome.responseHead)).toBeLessThanOrEqual(1024);
    expect(outcome.responseHead).toBe('x'.repeat(1024));
    await expect.poll(() => closedEarly).toBe(true);
    expect(written).toBeLessThan(5 * 1024 * 1024);
    expect(outcome.durationMs).toBeLessThan(2_000);
  });

  it('a closed port as a network failure', async () => {
    const gone = await startReceiver();
    await gone.close();
    const outcome = await postWebhook(`${gone.origin}/in`, body, signed(), loopback);
    expect(outcome).toMatchObject({ kind: 'failed', error: 'network' });
    expect(outcome.kind === 'failed' && outcome.message).toMatch(/ECONNREFUSED/);
  });

  it('a name without an address, or a resolver that fails, as a network failure', async () => {
    const nowhere = await postWebhook('https://nowhere.example.test/in', body, signed(), {
      resolve: stubResolver(),
    });
    expect(nowhere).toMatchObject({ kind: 'failed', error: 'network', message: 'nowhere.example.test has no address' });
    const failing = await postWebhook('https://nowhere.example.test/in', body, signed(), {
      resolve: () => Promise.reject(new Error('getaddrinfo ENOTFOUND nowhere.example.test')),
    });
    expect(failing).toMatchObject({ kind: 'failed', error: 'network' });
    expect(failing.kind === 'failed' && failing.message).toMatch(/ENOTFOUND/);
    // A resolver that throws instead of rejecting is a failure too, not an exception.
    const broken = await postWebhook('https://nowhere.example.test/in', body, signed(), {
      resolve: () => {
        throw new Error('the resolver broke');
      },
    });
    expect(broken).toMatchObject({ kind: 'failed', error: 'network', message: 'the resolver broke' });
  });
});

describe('the guard, as in production (allowLoopback off)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(() => {
    // Refused means refused before any connection: the receiver never saw one.
    expect(receiver.connections).toBe(0);
  });

  const refusal = async (url: string, options: Parameters<typeof postWebhook>[3] = {}) => {
    const outcome = await postWebhook(url, body, signed(), options);
    if (outcome.kind !== 'refused') throw new Error(`Expected a refusal, got ${JSON.stringify(outcome)}`);
    return outcome.reason;
  };

  it('refuses 127.0.0.1', async () => {
    expect(await refusal(`http://127.0.0.1:${receiver.port}/in`)).toBe('127.0.0.1: loopback: this machine');
  });

  it('refuses localhost, looked up by the system resolver', async () => {
    expect(await refusal(`http://localhost:${receiver.port}/in`)).toMatch(/^localhost points to (127\.0\.0\.1|::1): /);
  });

  it('refuses [::1] and [::ffff:127.0.0.1]', async () => {
    expect(await refusal(`http://[::1]:${receiver.port}/in`)).toBe('::1: IPv6 loopback: this machine');
    expect(await refusal(`http://[::ffff:127.0.0.1]:${receiver.port}/in`)).toMatch(
      /^::ffff:7f00:1: loopback: this machine: 127\.0\.0\.1, carried in an IPv4-mapped IPv6 address$/,
    );
    // 127.1 and 2130706433 are 127.0.0.1 too, once the URL is parsed.
    expect(await refusal(`http://127.1:${receiver.port}/in`)).toMatch(/^127\.0\.0\.1: loopback/);
    expect(await refusal(`http://2130706433:${receiver.port}/in`)).toMatch(/^127\.0\.0\.1: loopback/);
  });

  it('refuses a name that now points to 127.0.0.1 (DNS rebinding), at the connection’s own lookup', async () => {
    const resolve = stubResolver('127.0.0.1');
    expect(await refusal(`http://rebind.example:${receiver.port}/in`, { resolve })).toBe(
      'rebind.example points to 127.0.0.1: loopback: this machine',
    );
    expect(resolve.calls).toEqual(['rebind.example']);
  });

  it('refuses a name with one public and one private address, connecting to neither', async () => {
    const resolve = stubResolver('93.184.216.34', '10.0.0.1');
    expect(await refusal(`https://two.example/in`, { resolve })).toBe(
      'two.example points to 10.0.0.1: a private network (RFC 1918)',
    );
  });

  it('refuses what is not an http(s) address', async () => {
    expect(await refusal(`file:///etc/passwd`)).toBe('file: is not http(s)');
    expect(await refusal(`not a url`)).toBe('not a web address');
  });

  it('with allowLoopback, still refuses everything in the table but 127.0.0.0/8 and ::1', async () => {
    const metadata = stubResolver('169.254.169.254');
    expect(await refusal(`http://metadata.example/latest`, { ...loopback, resolve: metadata })).toMatch(
      /^metadata\.example points to 169\.254\.169\.254: link-local/,
    );
    expect(await refusal(`http://10.0.0.1:${receiver.port}/in`, loopback)).toMatch(/private network/);
    expect(await refusal(`http://[::ffff:127.0.0.1]:${receiver.port}/in`, loopback)).toMatch(/IPv4-mapped/);
    const mixed = stubResolver('127.0.0.1', '192.168.1.1');
    expect(await refusal(`http://mixed.example:${receiver.port}/in`, { ...loopback, resolve: mixed })).toMatch(
      /^mixed\.example points to 192\.168\.1\.1: /,
    );
  });
});
