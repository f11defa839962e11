import { rmSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/** Each run starts the server of npm start on a fresh embedded database (demo data included). */
export const E2E_DATA_DIR = '.data/e2e';
// The config is also loaded by every worker; only the main process may clear the data.
if (process.env.TEST_WORKER_INDEX === undefined) rmSync(E2E_DATA_DIR, { recursive: true, force: true });

const port = Number(process.env.E2E_PORT ?? 4510);
export const E2E_BASE_URL = `http://127.0.0.1:${port}`;
/** The Follow Up Boss fake (tests/fakes/fub-server.ts) the app sends leads to, and its account's key. */
export const FUB_FAKE_URL = `http://127.0.0.1:${port + 80}`;
export const FUB_FAKE_KEY = 'fub-e2e-key';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A check waits up to 10 s (Playwright's default is 5): CI's machine runs two browsers beside the
  // server, and a screen that fetches its data after hydrating may take more than 5 s there.
  expect: { timeout: 10_000 },
  workers: 2,
  reporter: [['list'], ['json', { outputFile: '.data/test-reports/e2e.json' }]],
  use: {
    baseURL: E2E_BASE_URL,
    // No fades mid-check: axe must see the colours a settled page shows.
    contextOptions: { reducedMotion: 'reduce' },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined } },
  ],
  webServer: [
    {
      command: 'node --import tsx tests/fakes/fub-server.ts',
      url: `${FUB_FAKE_URL}/__fake/people`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FUB_FAKE_PORT: String(port + 80), FUB_FAKE_KEY },
      stdout: 'pipe',
    },
    // The server of `npm start` (migrate, seed, build, serve) on a fresh embedded database.
    {
      // A new user's first seed (the shipped sample market data, data/sample/), then a small real data set
      // for two towns (tests/fixtures/write-market-files.ts) imported with the command a site without
      // feeds uses, npm run data:refresh -- --zhvi FILE --sold FILE, then npm start.
      command: [
        'node --import tsx scripts/seed.ts',
        'node --import tsx tests/fixtures/write-market-files.ts .data/e2e-market',
        'node --import tsx scripts/data-refresh.ts --zhvi .data/e2e-market/zhvi.csv --sold .data/e2e-market/sold.json',
        'node --import tsx scripts/start.ts',
      ].join(' && '),
      url: `${E2E_BASE_URL}/api/global/settings`,
      reuseExistingServer: false,
      timeout: 180_000,
      // Many tests leave leads with the featured agent; the notice cap (integration-tested) would make
      // one test's notice depend on how many others ran first.
      // Leads of an agent who connects Follow Up Boss go to the fake; the scheduled jobs (e-mail and
      // CRM retries) run every second rather than every minute, so a test need not wait for them.
      env: {
        PORT: String(port),
        DATA_DIR: E2E_DATA_DIR,
        LEAD_NOTICES_PER_HOUR: '1000',
        FUB_API_URL: FUB_FAKE_URL,
        JOBS_EVERY_MS: '1000',
        // Ten leads a page of the CSV exports (decision 0029), so an export of a few dozen spans pages.
        LEAD_EXPORT_PAGE_ROWS: '10',
      },
      stdout: 'pipe',
    },
  ],
});
