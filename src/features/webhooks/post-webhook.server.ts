/**
 * Sends one webhook delivery: a POST of a signed body to an endpoint an agent chose, through the
 * SSRF guard (address-guard.server.ts). Everything that reaches out to an endpoint goes through
 * here, so the guard cannot be forgotten by a caller:
 *
 * - The name is resolved once, inside the connection's own `lookup`, and the socket connects to an
 *   address that was checked there: nothing can resolve the name again between the check and the
 *   connection (DNS rebinding). If ANY address of the name is refused, nothing is sent: a name
 *   that answers one public and one private address must not be tried until it lands inside.
 * - An IP address in the URL is never looked up (Node connects to it directly): it is checked here,
 *   before the request.
 * - No redirect is followed: a 3xx is the receiver's answer (Standard Webhooks counts it a
 *   failure), as a Location could point anywhere, inside included.
 * - One timeout covers the lookup, the connection, TLS and the answer's head; the answer's body is
 *   read up to a limit, and the socket is destroyed then. No keep-alive pool: a socket is never
 *   shared between endpoints.
 *
 * It never throws for anything the network does: every end is a PostOutcome to record.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { parseRetryAfter } from '../../platform/retry-after.ts';
import { isLoopbackAddress, refusedAddressReason } from './address-guard.server.ts';

export type Resolve = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface PostOptions {
  /** How a name becomes addresses; default: the system's resolver (dns.promises.lookup, all). */
  resolve?: Resolve;
  /**
   * Tests and local development only: 127.0.0.0/8 and ::1 pass the guard; everything else in the
   * table is still refused.
   */
  allowLoopback?: boolean;
  /** The whole request, lookup and connection included; default WEBHOOK_TIMEOUT_MS. */
  timeoutMs?: number;
  /** How much of the answer's body is read before the socket is destroyed; default 64 KiB. */
  maxResponseBytes?: number;
}

export type PostOutcome =
  | {
      kind: 'answered';
      status: number;
      durationMs: number;
      /** The first 1,024 bytes of the answer's body, as UTF-8 text. */
      responseHead: string;
      /** From Retry-After, in seconds or as an HTTP date; null without one. */
      retryAfterSeconds: number | null;
    }
  /** The guard refused the address: nothing was sent. */
  | { kind: 'refused'; reason: string; durationMs: number }
  | { kind: 'failed'; error: 'timeout' | 'network'; message: string; durationMs: number };

/** Long enough for a slow receiver, short enough that a hung one does not hold a worker. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** What is kept of an answer's body to show the agent why a delivery failed. */
const RESPONSE_HEAD_BYTES = 1024;

const systemResolve: Resolve = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map(({ address }) => ({
    address,
    family: isIP(address) === 6 ? 6 : 4,
  }));

/** Why the guard refuses `address`, or null; loopback passes only when allowed. */
function refusal(address: string, allowLoopback: boolean): string | null {
  return allowLoopback && isLoopbackAddress(address) ? null : refusedAddressReason(address);
}

/** The family a lookup asks for (Node passes 0, 4 or 6; the types also allow 'IPv4' and 'IPv6'). */
function familyAsked(family: number | string | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions = {},
): Promise<PostOutcome> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const {
    resolve = systemResolve,
    allowLoopback = false,
    timeoutMs = WEBHOOK_TIMEOUT_MS,
    maxResponseBytes = MAX_RESPONSE_BYTES,
  } = options;
  const refuse = (reason: string): Promise<PostOutcome> =>
    Promise.resolve({ kind: 'refused', reason, durationMs: durationMs() });

  if (!URL.canParse(url)) return refuse('not a web address');
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return refuse(`${target.protocol} is not http(s)`);
  // The parser writes every spelling of an IP address in its usual form; IPv6 in [brackets].
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(hostname) !== 0) {
    const reason = refusal(hostname, allowLoopback);
    if (reason !== null) return refuse(`${hostname}: ${reason}`);
    // Node connects to an IP address without a lookup: it goes through the resolver here instead, so
    // that every address sent to passes the one resolver (the system's answers an address with
    // itself; the tests' refuses all but this machine's loopback).
    return Promise.resolve(hostname)
      .then(resolve)
      .then(
        () => send(target, hostname, body, headers, { resolve, allowLoopback, timeoutMs, maxResponseBytes }, started),
        (error: unknown): PostOutcome => ({
          kind: 'failed',
          error: 'network',
          message: error instanceof Error ? error.message : String(error),
          durationMs: durationMs(),
        }),
      );
  }
  return send(target, hostname, body, headers, { resolve, allowLoopback, timeoutMs, maxResponseBytes }, started);
}

/** Sends the request once the address is known to be allowed (a name is checked in the lookup). */
function send(
  target: URL,
  hostname: string,
  body: string,
  headers: Record<string, string>,
  { resolve, allowLoopback, timeoutMs, maxResponseBytes }: Required<PostOptions>,
  started: number,
): Promise<PostOutcome> {
  const durationMs = () => Math.round(performance.now() - started);
  return new Promise<PostOutcome>((settle) => {
    let settled = false;
    /** Set by the lookup when it refuses: the request's error is then a refusal, not a failure. */
    let refusedBecause: string | null = null;
    /** Set when the answer's head arrived: a timeout after it ends the reading, not the delivery. */
    let finishAnswer: (() => void) | null = null;

    const end = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(outcome);
    };

    const lookup: LookupFunction = (name, lookupOptions, callback) => {
      // Through a promise first: a resolver that throws instead of rejecting still ends as a failure.
      Promise.resolve(name)
        .then(resolve)
        .then(
          (answers) => {
            for (const { address } of answers) {
              const reason = refusal(address, allowLoopback);
              if (reason !== null) {
                refusedBecause = `${name} points to ${address}: ${reason}`;
                callback(new Error(refusedBecause), '');
                return;
              }
            }
            const wanted = familyAsked(lookupOptions.family);
            const usable = answers
              .map(({ address }) => ({ address, family: isIP(address) }))
              .filter(({ family }) => wanted === 0 || family === wanted);
            const [first] = usable;
            if (!first) {
              callback(Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' }), '');
            } else if (lookupOptions.all) {
              callback(null, usable);
            } else {
              callback(null, first.address, first.family);
            }
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
        )
        // Should the socket throw while it takes the answer, the request ends with that error (a
        // failure), rather than as a rejection nobody handles.
        .catch((error: unknown) => request.destroy(error instanceof Error ? error : new Error(String(error))));
    };

    const requestOptions: RequestOptions = {
      method: 'POST',
      hostname,
      port: target.port === '' ? undefined : Number(target.port),
      path: `${target.pathname}${target.search}`,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      agent: false,
      lookup,
      // The certificate is checked against the name, not the address connected to.
      ...(target.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname.replace(/\.$/, '') } : {}),
    };
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(requestOptions);

    const timer = setTimeout(() => {
      if (finishAnswer) finishAnswer();
      else
        end({
          kind: 'failed',
          error: 'timeout',
          message: `No answer within ${timeoutMs} ms`,
          durationMs: durationMs(),
        });
      request.destroy();
    }, timeoutMs);

    request.on('response', (answer: IncomingMessage) => {
      const head: Buffer[] = [];
      let headBytes = 0;
      let read = 0;
      const finish = () =>
        end({
          kind: 'answered',
          status: answer.statusCode ?? 0,
          durationMs: durationMs(),
          responseHead: Buffer.concat(head).toString('utf8'),
          retryAfterSeconds: parseRetryAfter(answer.headers['retry-after']) ?? null,
        });
      finishAnswer = finish;
      answer.on('data', (chunk: Buffer) => {
        if (headBytes < RESPONSE_HEAD_BYTES) {
          const part = chunk.subarray(0, RESPONSE_HEAD_BYTES - headBytes);
          head.push(part);
          headBytes += part.length;
        }
        read += chunk.length;
        if (read >= maxResponseBytes) {
          finish();
          request.destroy();
        }
      });
      // The status is the answer: a body cut short (closed, reset, too slow) still reports it.
      answer.on('end', finish);
      answer.on('close', finish);
      answer.on('error', finish);
    });

    request.on('error', (error) => {
      if (refusedBecause !== null) end({ kind: 'refused', reason: refusedBecause, durationMs: durationMs() });
      else end({ kind: 'failed', error: 'network', message: error.message, durationMs: durationMs() });
    });

    request.end(body);
  });
}
