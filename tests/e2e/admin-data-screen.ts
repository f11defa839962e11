/**
 * What the /admin/data specs (tests/e2e/admin-data-*.spec.ts) share: the accessibility rules they
 * check, the screen's build card and runs table as they find them, and the canned runs the mocked
 * specs answer (one run of each status, the finished one naming 119 towns).
 */
import type { Page } from '@playwright/test';
import { allTowns } from '../../src/features/towns/public/town-data.ts';

export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export const buildCard = (page: Page) => page.getByRole('region', { name: 'Public site' });
export const runsTable = (page: Page) => page.getByRole('region', { name: 'Market-data runs, newest first' });

/** The time of the canned runs and builds. */
export const ISO = '2026-11-23T17:04:00.000Z';
/** The towns the mocked finished run updated, by name, sorted as the server sorts them. */
export const UPDATED_NAMES = allTowns()
  .map((town) => town.name)
  .sort((a, b) => a.localeCompare(b))
  .slice(0, 119);
export const RUNS = {
  success: true,
  running: true,
  runs: [
    {
      id: 4,
      source: 'sold',
      origin: 'Uploaded file closed-sales.json',
      started_at: '2026-11-23T17:11:00.000Z',
      finished_at: null,
      status: 'queued',
      rows_read: 0,
      rows_skipped: 0,
      towns_updated: 0,
      updated_towns: [],
      error: null,
    },
    {
      id: 3,
      source: 'zhvi',
      origin: 'Uploaded file City_zhvi_uc_sfrcondo_tier_0.33_0.67_sm_sa_month.csv',
      started_at: '2026-11-23T17:10:00.000Z',
      finished_at: null,
      status: 'running',
      rows_read: 12_408,
      rows_skipped: 0,
      towns_updated: 0,
      updated_towns: [],
      error: null,
    },
    {
      id: 2,
      source: 'sold',
      origin: 'https://api.mls.example/odata',
      started_at: '2026-11-23T06:00:00.000Z',
      finished_at: '2026-11-23T06:00:40.000Z',
      status: 'failed',
      rows_read: 0,
      rows_skipped: 0,
      towns_updated: 0,
      updated_towns: [],
      error: 'https://api.mls.example/odata answered 401',
    },
    {
      id: 1,
      source: 'zhvi',
      origin: 'https://files.zillowstatic.com/research/public_csvs/zhvi/City_zhvi.csv',
      started_at: '2026-11-22T06:00:00.000Z',
      finished_at: '2026-11-22T06:01:30.000Z',
      status: 'succeeded',
      rows_read: 21_370,
      rows_skipped: 2,
      towns_updated: 119,
      updated_towns: UPDATED_NAMES,
      error: null,
    },
  ],
};
