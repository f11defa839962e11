// Lighthouse on one page of bench:web, in the system's Chromium, and the figures it reports.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { run } from './web-processes.ts';
import { ROOT } from './web-root.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface LighthouseFigures {
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  cls: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  /** Audits that cost points in accessibility, best practices or SEO. */
  failing: string[];
  error?: string;
}

const scoreOf = z.object({ score: z.number().nullable() }).optional();
const lighthouseReport = z.object({
  runtimeError: z.object({ message: z.string() }).optional(),
  categories: z.object({
    performance: scoreOf,
    accessibility: scoreOf,
    'best-practices': scoreOf,
    seo: scoreOf,
  }),
  audits: z.record(
    z.string(),
    z.object({
      score: z.number().nullable(),
      numericValue: z.number().optional(),
      scoreDisplayMode: z.string(),
    }),
  ),
});
const auditRefs = z.object({
  categories: z.record(z.string(), z.object({ auditRefs: z.array(z.object({ id: z.string(), weight: z.number() })) })),
});

/**
 * Lighthouse on `url`; with `cookie`, signed in: Lighthouse's `--extra-headers` puts it on every
 * request of the run, the page's and its API calls' (docs/authenticated-pages.md of Lighthouse,
 * option 3; it replaces any other cookie, and the signed-in screens use no other).
 */
export async function lighthouse(
  url: string,
  reportFile: string,
  env: NodeJS.ProcessEnv,
  cookie?: string,
): Promise<LighthouseFigures> {
  const cli = join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const { code, output } = await run(
    process.execPath,
    [
      cli,
      url,
      '--output=json',
      `--output-path=${reportFile}`,
      '--quiet',
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
      ...(process.argv.includes('--traces') ? ['--save-assets'] : []),
    ],
    { ...env, CHROME_PATH: CHROMIUM },
  );
  const empty: LighthouseFigures = {
    performance: null,
    accessibility: null,
    bestPractices: null,
    seo: null,
    cls: null,
    lcpMs: null,
    tbtMs: null,
    failing: [],
  };
  if (code !== 0 || !existsSync(reportFile)) {
    return { ...empty, error: `lighthouse exited with ${code}: ${output.trim().split('\n').slice(-5).join(' | ')}` };
  }
  const raw: unknown = JSON.parse(readFileSync(reportFile, 'utf8'));
  const report = lighthouseReport.parse(raw);
  const refs = auditRefs.parse(raw);
  const failing = ['accessibility', 'best-practices', 'seo'].flatMap((category) =>
    (refs.categories[category]?.auditRefs ?? [])
      .filter(({ id, weight }) => {
        const audit = report.audits[id];
        return weight > 0 && audit && audit.scoreDisplayMode === 'binary' && audit.score !== null && audit.score < 1;
      })
      .map(({ id }) => `${category}: ${id}`),
  );
  const numeric = (id: string) => report.audits[id]?.numericValue ?? null;
  return {
    performance: report.categories.performance?.score ?? null,
    accessibility: report.categories.accessibility?.score ?? null,
    bestPractices: report.categories['best-practices']?.score ?? null,
    seo: report.categories.seo?.score ?? null,
    cls: numeric('cumulative-layout-shift'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    failing,
    ...(report.runtimeError ? { error: report.runtimeError.message } : {}),
  };
}
