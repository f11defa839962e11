/**
 * The Follow Up Boss fake as a process of its own, for the e2e run (playwright.config.ts starts it
 * beside the app, whose FUB_API_URL points here): the account of FUB_FAKE_KEY, and GET
 * /__fake/people and /__fake/events for the tests to look inside.
 */
import { startFakeFub } from './fub.ts';

const fake = await startFakeFub({
  apiKey: process.env.FUB_FAKE_KEY ?? 'fub-e2e-key',
  port: Number(process.env.FUB_FAKE_PORT ?? 4590),
  inspection: true,
});
console.log(`LISTENING ${fake.url}`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
