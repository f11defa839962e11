/**
 * The Follow Up Boss fake on its own, for e2e runs: `node --import tsx tests/fakes/fub-server.ts`.
 * Listens on 127.0.0.1:FUB_FAKE_PORT (default 4590), prints `LISTENING http://127.0.0.1:PORT`,
 * and knows one account whose API key is FUB_FAKE_KEY (default `fub-e2e-key`). A browser test
 * looks inside through GET /__fake/people (that account's people) and GET /__fake/events, and a
 * benchmark steers it with POST /__fake/trouble, /__fake/down, /__fake/up and /__fake/reset.
 * FUB_FAKE_PORT=0 takes a free port.
 */
import { startFakeFub } from './fub.ts';

const port = Number(process.env.FUB_FAKE_PORT ?? 4590);
const fub = await startFakeFub({ port, apiKey: process.env.FUB_FAKE_KEY ?? 'fub-e2e-key', inspection: true });
console.log(`LISTENING ${fub.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void fub.close().then(() => process.exit(0));
  });
}
