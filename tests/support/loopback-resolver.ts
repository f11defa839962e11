/**
 * The resolver every test app's webhooks use (tests/support/http.ts): this machine's loopback only.
 * `localhost` and loopback addresses answer themselves; any other name or address is not found, so
 * no test can send a webhook, or even a DNS query, anywhere else, whatever an endpoint's address is
 * (the fuzz suite saves random ones). The guard itself is tested with stubs of its own
 * (tests/integration/webhook-post.test.ts).
 */
import { isIP } from 'node:net';
import type { Resolve } from '../../src/features/webhooks/post-webhook.server.ts';
import { isLoopbackAddress } from '../../src/features/webhooks/address-guard.server.ts';

export const loopbackOnlyResolve: Resolve = (hostname) => {
  const name = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (name === 'localhost') return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  if (isIP(name) !== 0 && isLoopbackAddress(name)) {
    return Promise.resolve([{ address: name, family: isIP(name) === 6 ? 6 : 4 }]);
  }
  return Promise.reject(
    Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests reach only this machine)`), {
      code: 'ENOTFOUND',
    }),
  );
};
