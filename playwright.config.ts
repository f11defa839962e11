import { rmSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/** Each run starts the server of npm start on a fresh embedded database (demo data included). */
export const E2E_DATA_DIR = '.data/e2e';
// The config is also loaded by every worker; only the main process may clear the data.
if (process.env.TEST_WORKER_INDEX === undefined) rmSync(E2E_DATA_DIR, { recursive: true, force: true });

const port = Number(process.env.E2E_PORT ?? 4510);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: [['list'], ['json', { outputFile: '.data/test-reports/e2e.json' }]],
  use: {
    baseURL,
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
  // The server of `npm start` (migrate, seed, build, serve) on a fresh embedded database.
  webServer: {
    // A new user's first seed (the shipped sample market data, data/sample/), then a small real data set
    // for two towns (tests/fixtures/write-market-files.ts) imported with the command a site without
    // feeds uses, npm run data:refresh -- --zhvi FILE --sold FILE, then npm start.
    command: [
      'node --import tsx scripts/seed.ts',
      'node --import tsx tests/fixtures/write-market-files.ts .data/e2e-market',
      'node --import tsx scripts/data-refresh.ts --zhvi .data/e2e-market/zhvi.csv --sold .data/e2e-market/sold.json',
      'node --import tsx scripts/start.ts',
    ].join(' && '),
    url: `${baseURL}/api/global/settings`,
    reuseExistingServer: false,
    timeout: 180_000,
    // Many tests leave leads with the featured agent; the notice cap (integration-tested) would make
    // one test's notice depend on how many others ran first.
    env: { PORT: String(port), DATA_DIR: E2E_DATA_DIR, LEAD_NOTICES_PER_HOUR: '1000' },
    stdout: 'pipe',
  },
});
