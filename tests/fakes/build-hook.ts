/**
 * A local stand-in for a Netlify build hook (https://api.netlify.com/build_hooks/{id}), on
 * 127.0.0.1 and a random port: POST to the hook's path answers 200 and counts the build; on
 * command the next N requests answer 500 or 429 (with Retry-After) instead; any other method is 405
 * and any other path 404, as Netlify answers them. A request can also be held until released, to
 * see what happens while a build is being asked for.
 */
import { randomBytes } from 'node:crypto';
import { startLoopbackServer, troubleQueue } from './loopback-server.ts';

export type HookTrouble = 500 | 429;

export interface FakeBuildHook {
  /** The hook's URL (BUILD_HOOK_URL). */
  readonly url: string;
  /** Builds Netlify would have started (2xx answers). */
  readonly builds: number;
  /** Every POST to the hook, answered or not. */
  readonly requests: number;
  fail(status: HookTrouble, times?: number): void;
  /** Holds the following requests until the returned release() is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export async function startFakeBuildHook(): Promise<FakeBuildHook> {
  const path = `/build_hooks/${randomBytes(12).toString('hex')}`;
  const trouble = troubleQueue<HookTrouble>();
  let builds = 0;
  let requests = 0;
  let held: Promise<void> | undefined;
  const server = await startLoopbackServer(async (request, response) => {
    if (request.url !== path) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { 'content-type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    requests += 1;
    if (held) await held;
    const planned = trouble.next();
    if (planned === 429) {
      response.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '60' }).end('Too Many Requests');
    } else if (planned === 500) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    } else {
      builds += 1;
      response.writeHead(200, { 'content-type': 'text/plain' }).end('');
    }
  });
  return {
    url: `${server.origin}${path}`,
    get builds() {
      return builds;
    },
    get requests() {
      return requests;
    },
    fail: (status, times = 1) => trouble.plan(status, times),
    hold() {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
      return release;
    },
    close: () => server.close(),
  };
}
