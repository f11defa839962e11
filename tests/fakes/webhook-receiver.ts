/**
 * A local webhook receiver (Zapier's "Catch Hook", a CRM's inbound endpoint) on 127.0.0.1: it verifies
 * each request with the `standardwebhooks` package's reference implementation when given the
 * endpoint's secret, records what it got, and answers as planned: 200 by default, or the next
 * planned answers (a status with headers, a slow answer, a dropped connection).
 *
 * It takes each webhook-id once, as the Standard Webhooks specification asks of receivers
 * ("Idempotency"): `accepted` lists the ids it answered 2xx, and `acceptedTwice` any id it was sent
 * again after accepting it, which our sender must never do.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { header, readBody, startLoopbackServer, troubleQueue } from './loopback-server.ts';

export type ReceiverAnswer =
  { status: number; headers?: Record<string, string>; body?: string } | { hang: true } | { drop: true };

export interface ReceivedWebhook {
  /** The path it was sent to: each endpoint of a test has its own. */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the reference implementation verified it with the secret given (null without one). */
  verified: boolean | null;
  answered: number | 'hang' | 'drop';
}

export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const accepted: string[] = [];
  const acceptedTwice: string[] = [];
  const trouble = troubleQueue<ReceiverAnswer>();
  let secret: string | null = null;

  const server = await startLoopbackServer(async (request, response) => {
    const body = (await readBody(request)).toString('utf8');
    const id = header(request.headers, 'webhook-id') ?? '';
    let verified: boolean | null = null;
    if (secret !== null) {
      try {
        new Webhook(secret).verify(body, {
          'webhook-id': id,
          'webhook-timestamp': header(request.headers, 'webhook-timestamp') ?? '',
          'webhook-signature': header(request.headers, 'webhook-signature') ?? '',
        });
        verified = true;
      } catch {
        verified = false;
      }
    }
    const planned = trouble.next() ?? { status: 200, body: '{"ok":true}' };
    const record = (answered: ReceivedWebhook['answered']) =>
      received.push({
        path: request.url ?? '',
        id,
        timestamp: header(request.headers, 'webhook-timestamp') ?? '',
        signature: header(request.headers, 'webhook-signature') ?? '',
        headers: request.headers,
        body,
        verified,
        answered,
      });
    if ('hang' in planned) {
      record('hang');
      return new Promise<void>((resolve) => request.socket.once('close', resolve));
    }
    if ('drop' in planned) {
      record('drop');
      request.socket.destroy();
      return;
    }
    record(planned.status);
    if (planned.status >= 200 && planned.status < 300) {
      if (accepted.includes(id)) acceptedTwice.push(id);
      else accepted.push(id);
    }
    response.writeHead(planned.status, { 'content-type': 'application/json', ...planned.headers });
    response.end(planned.body ?? '');
  });

  return {
    origin: server.origin,
    url: (path = '/hooks/catch') => `${server.origin}${path}`,
    received,
    accepted,
    acceptedTwice,
    /** Verify what arrives with this secret (the one the endpoint's creation answered). */
    verifyWith(next: string | null) {
      secret = next;
    },
    /** The next `times` requests are answered so. */
    plan(answer: ReceiverAnswer, times = 1) {
      trouble.plan(answer, times);
    },
    reset() {
      received.length = 0;
      accepted.length = 0;
      acceptedTwice.length = 0;
      trouble.clear();
      secret = null;
    },
    close: () => server.close(),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
