// npm run bench:web — the web budgets, measured on a fresh build:
//   1. seeds a throwaway embedded database and times a full `astro build` into an empty directory;
//   2. serves that build with scripts/serve.ts on a free port and creates one estimate;
//   3. runs Lighthouse (mobile, default simulated throttling) on the home, Suffolk County, a town
//      (Bay Shore, else the first town built), the featured agent's and the estimate's pages;
//   4. loads each page in Chromium without interacting and adds up the JavaScript it fetched, gzipped;
//   5. does the same, signed in, on every dashboard screen (as the seed's demo agent) and every admin
//      screen (as the demo admin), as built (dist/dashboard, dist/admin): one login per
//      role through the real login API, its session cookie handed to Lighthouse as an extra header
//      and to Chromium as a cookie (issue 23: the signed-in screens measured as the public side is);
//   6. prints a table and PASS/FAIL per budget; exits non-zero if any fails.
// `npm run bench:web -- --only=/admin/leads` measures only that page, `--only=/dashboard/*,/admin/*`
// the signed-in screens (comma-separated; the build is still made), to re-run a screen when the
// machine was busy. `--runs=3` runs Lighthouse three times on each page and reports the median run
// (by performance, then total blocking time), each run's performance and TBT in the notes.
// `--traces` keeps each run's trace beside its report (Lighthouse's --save-assets), to see what ran.
// The build goes to a temporary directory, not dist/, so a bench never disturbs a server or an e2e
// run using dist/; scripts/serve.ts serves `dist` of its working directory, so it runs from there.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import * as z from 'zod';
import { SESSION_COOKIE } from '../src/features/auth/public/sessions.server.ts';
import { parseEnv } from '../src/platform/env.ts';
import { createRouter, listFiles, signedInScreens, sitePages } from '../tests/support/site-pages.ts';
import { CHROME_FLAGS, CHROMIUM, lighthouse, type LighthouseFigures } from './bench/web-lighthouse.ts';
import { children, freePort, run, stopChild, waitForServer } from './bench/web-processes.ts';
import { ROOT } from './bench/web-root.ts';
import { scriptsBeforeInteraction, type ScriptFigures } from './bench/web-scripts.ts';

/** Lighthouse's reports of the last run, kept for a look (`.data/` is not committed). */
const REPORTS = join(ROOT, '.data', 'bench-web');
const TOWN = '/long-island-real-estate/bay-shore';
/** The seed's demo accounts (src/app/seed.ts): the agent for /dashboard/*, the admin for /admin/*. */
const DEMO_LOGIN = {
  dashboard: { email: 'agent@example.com', password: 'demo-agent-password' },
  admin: { email: 'admin@example.com', password: 'demo-admin-password' },
} as const;
type Area = keyof typeof DEMO_LOGIN;
const COUNTY = '/long-island-real-estate/suffolk-county';
/** `--only=/admin/leads` is that page; `--only=/admin/*` is /admin and every page under it. */
const onlyMatches = (wanted: string, path: string): boolean =>
  wanted.endsWith('/*') ? path === wanted.slice(0, -2) || path.startsWith(wanted.slice(0, -1)) : path === wanted;
/** Only these pages (`--only=a,b`, see onlyMatches); every page without it. */
const ONLY = process.argv
  .find((argument) => argument.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .filter(Boolean);

const BUDGET = {
  buildSeconds: 60,
  performance: 0.98,
  perfect: 1,
  cls: 0.02,
  /** Gzipped JavaScript before any interaction, on the home, county and town pages. */
  jsKb: 80,
  /** The same on /r/{slug} and /estimate/{uuid}, which load React only on intent (decision 0025). */
  dynamicJsKb: 15,
  /** The same on each dashboard and admin screen, signed in (issue 23). */
  signedInJsKb: 80,
};

type Kind = 'home' | 'county' | 'town' | 'agent' | 'estimate' | Area;
const PUBLIC: Kind[] = ['home', 'county', 'town', 'agent', 'estimate'];
const SIGNED_IN: Kind[] = ['dashboard', 'admin'];
interface Target {
  kind: Kind;
  path: string;
  /** The session cookie (`name=value`) it is measured with, for a signed-in screen. */
  cookie?: string;
  /** Why it was not measured (not built), if it was not. */
  missing?: string;
}
const temporary = mkdtempSync(join(tmpdir(), 'bench-web-'));
const dataDir = join(temporary, 'data');
const outDir = join(temporary, 'dist');
let browser: Browser | undefined;

/** Node 22 and the project's binaries first, as npm scripts have them. */
const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
  DATA_DIR: dataDir,
  FORCE_COLOR: '0',
  ...extra,
});

/** Signs in through the real login API as `area`'s demo account; its session cookie, `name=value`. */
async function signIn(origin: string, area: Area): Promise<string> {
  const answer = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin },
    body: JSON.stringify(DEMO_LOGIN[area]),
  });
  if (!answer.ok) throw new Error(`login as the demo ${area} account answered ${answer.status}`);
  const cookie = answer.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .filter((pair) => pair?.startsWith(`${SESSION_COOKIE}=`))
    .at(0);
  if (!cookie) throw new Error(`login as the demo ${area} account set no session cookie`);
  return cookie;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const score = (value: number | null) => (value === null ? '-' : value.toFixed(2));

/** Lighthouse runs per page (`--runs=3`): the median one is reported. */
const RUNS = z.coerce
  .number()
  .int()
  .min(1, 'runs must be at least 1')
  .max(9, 'runs must be at most 9')
  .parse(process.argv.find((argument) => argument.startsWith('--runs='))?.slice('--runs='.length) ?? 1);

async function cleanUp(): Promise<void> {
  await browser?.close().catch(() => undefined);
  await Promise.all([...children].map(stopChild));
  rmSync(temporary, { recursive: true, force: true });
}

async function main(): Promise<number> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // PORT also gives the build its default site origin (canonical URLs), the one it is served at.
  const env = childEnv({ PORT: String(port) });
  const tsx = import.meta.resolve('tsx');

  console.log(`Seeding a throwaway database (${dataDir}) and building into ${outDir}…`);
  const seeded = await run(process.execPath, ['--import', tsx, join(ROOT, 'scripts', 'seed.ts')], env);
  if (seeded.code !== 0) throw new Error(`seeding failed:\n${seeded.output}`);
  const started = performance.now();
  const build = await run(join(ROOT, 'node_modules', '.bin', 'astro'), ['build', '--outDir', outDir], env);
  const buildSeconds = (performance.now() - started) / 1000;
  if (build.code !== 0) throw new Error(`astro build failed:\n${build.output}`);
  const htmlFiles = listFiles(outDir).filter((file) => file.endsWith('.html')).length;
  const pages = sitePages(outDir);
  console.log(`Built ${htmlFiles} HTML files (${pages.length} pages) in ${buildSeconds.toFixed(1)} s.`);

  const server = spawn(process.execPath, ['--import', tsx, join(ROOT, 'scripts', 'serve.ts')], {
    cwd: temporary,
    env: { ...env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(server);
  await waitForServer(`${origin}/api/global/settings`, server);

  const slug = parseEnv().FEATURED_AGENT_SLUG;
  const created = await fetch(`${origin}/api/estimates`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ agent_slug: slug, sale_price: 650000, mortgage_payoff: 300000, recipient_name: 'Bench' }),
  });
  if (created.status !== 201) throw new Error(`POST /api/estimates answered ${created.status}`);
  const { uuid } = z.object({ estimate: z.object({ uuid: z.string() }) }).parse(await created.json()).estimate;

  const router = createRouter(outDir);
  const served = (path: string) => {
    const route = router.route(path);
    return route.kind === 'file' || (route.kind === 'rewrite' && route.status === 200);
  };
  const town =
    pages.includes(TOWN) || served(TOWN)
      ? TOWN
      : pages.find((path) => path.startsWith('/long-island-real-estate/') && !path.endsWith('-county'));
  const wanted: Target[] = [
    { kind: 'home', path: '/' },
    { kind: 'county', path: COUNTY },
    { kind: 'town', path: town ?? TOWN },
    { kind: 'agent', path: `/r/${slug}` },
    { kind: 'estimate', path: `/estimate/${uuid}` },
  ];
  // One login per role for the whole run: the login limit (10 per address in 15 minutes) would
  // stop a login per screen.
  const cookies = { dashboard: await signIn(origin, 'dashboard'), admin: await signIn(origin, 'admin') };
  for (const area of ['dashboard', 'admin'] as const) {
    for (const path of signedInScreens(area, outDir)) wanted.push({ kind: area, path, cookie: cookies[area] });
  }
  const targets = wanted
    .filter((target) => !ONLY || ONLY.some((wanted) => onlyMatches(wanted, target.path)))
    .map((target): Target => ({
      ...target,
      ...(served(target.path) ? {} : { missing: `${target.path} is not in the build` }),
    }));
  if (town && town !== TOWN) console.log(`${TOWN} is not built yet: measuring ${town} instead.`);

  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const results: { target: Target; lighthouse?: LighthouseFigures; scripts?: ScriptFigures }[] = [];
  const runNotes: string[] = [];
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROME_FLAGS.slice(1) });
  for (const target of targets) {
    if (target.missing) {
      results.push({ target });
      continue;
    }
    console.log(`Lighthouse and scripts: ${target.path}…`);
    // Lighthouse first and alone: it times the page, nothing else may run meanwhile.
    const report = join(REPORTS, `lighthouse-${target.path.slice(1).replaceAll('/', '-') || 'home'}.json`);
    const runs: { figures: LighthouseFigures; file: string }[] = [];
    for (let round = 1; round <= RUNS; round++) {
      const file = round === 1 ? report : report.replace(/\.json$/, `-run${round}.json`);
      runs.push({ figures: await lighthouse(`${origin}${target.path}`, file, childEnv({}), target.cookie), file });
    }
    // The median run: by performance, then (the same score) by total blocking time.
    runs.sort(
      (a, b) =>
        (b.figures.performance ?? -1) - (a.figures.performance ?? -1) ||
        (a.figures.tbtMs ?? Infinity) - (b.figures.tbtMs ?? Infinity),
    );
    const median = runs[Math.floor(runs.length / 2)] ?? runs[0];
    if (!median) throw new Error('no Lighthouse run');
    const figures = median.figures;
    if (RUNS > 1) {
      runNotes.push(
        `${target.path}: runs (perf/TBT ms) ${runs.map(({ figures: run }) => `${score(run.performance)}/${run.tbtMs?.toFixed(0) ?? '-'}`).join(', ')}; median: ${median.file}`,
      );
    }
    const scripts = await scriptsBeforeInteraction(browser, `${origin}${target.path}`, target.cookie);
    results.push({ target, lighthouse: figures, scripts });
  }

  // The table.
  const width = Math.max(4, ...results.map(({ target }) => `${target.kind} ${target.path}`.length));
  const header = [
    'page'.padEnd(width),
    'perf'.padStart(5),
    'a11y'.padStart(5),
    'b-p'.padStart(5),
    'seo'.padStart(5),
    'CLS'.padStart(7),
    'LCP ms'.padStart(7),
    'TBT ms'.padStart(7),
    'scripts'.padStart(8),
    'JS KB gz'.padStart(9),
    'raw KB'.padStart(7),
    'inline KB gz'.padStart(13),
  ];
  console.log(`\n${header.join(' ')}`);
  for (const { target, lighthouse: lh, scripts } of results) {
    const label = `${target.kind} ${target.path}`.padEnd(width);
    if (!lh || !scripts) {
      console.log(`${label} ${target.missing ?? 'not measured'}`);
      continue;
    }
    console.log(
      [
        label,
        score(lh.performance).padStart(5),
        score(lh.accessibility).padStart(5),
        score(lh.bestPractices).padStart(5),
        score(lh.seo).padStart(5),
        (lh.cls === null ? '-' : lh.cls.toFixed(3)).padStart(7),
        (lh.lcpMs === null ? '-' : lh.lcpMs.toFixed(0)).padStart(7),
        (lh.tbtMs === null ? '-' : lh.tbtMs.toFixed(0)).padStart(7),
        String(scripts.scripts).padStart(8),
        kb(scripts.gzipBytes).padStart(9),
        kb(scripts.rawBytes).padStart(7),
        kb(scripts.inlineGzipBytes).padStart(13),
      ].join(' '),
    );
  }
  // A noindex page (the shared estimate, the signed-in screens) is not crawlable on purpose.
  const noindexAudit = (target: Target, audit: string) =>
    audit === 'seo: is-crawlable' && ['estimate', ...SIGNED_IN].includes(target.kind);
  const notes = results.flatMap(({ target, lighthouse: lh, scripts }) => [
    ...(lh?.error ? [`${target.path}: Lighthouse: ${lh.error}`] : []),
    ...(lh?.failing.some((audit) => !noindexAudit(target, audit))
      ? [
          `${target.path}: audits losing points: ${lh.failing.filter((audit) => !noindexAudit(target, audit)).join(', ')}`,
        ]
      : []),
    ...(scripts?.error ? [`${target.path}: scripts: ${scripts.error}`] : []),
  ]);
  if (runNotes.length > 0) console.log(`\n${runNotes.join('\n')}`);
  if (notes.length > 0) console.log(`\n${notes.join('\n')}\nLighthouse reports: ${REPORTS}/`);

  console.log(
    '\nJS KB gz: script responses before any interaction, each gzipped (budgeted). inline: inline <script>s, gzipped (not budgeted).',
  );

  // The budgets.
  const measured = results.filter((result) => result.lighthouse && result.scripts);
  const everyPage = (
    label: string,
    value: (lh: LighthouseFigures) => number | null,
    ok: (value: number) => boolean,
    except: Kind[] = [],
  ) => {
    const misses = results.flatMap(({ target, lighthouse: lh }) => {
      if (except.includes(target.kind)) return [];
      if (!lh) return [`${target.path} (${target.missing ?? 'not measured'})`];
      const figure = value(lh);
      return figure !== null && ok(figure) ? [] : [`${target.path} ${figure === null ? '-' : figure.toFixed(3)}`];
    });
    return [label, misses.length === 0, misses] as const;
  };
  /** Gzipped JavaScript before interaction on the pages of `kinds`, at most `limitKb` each. */
  const jsBudget = (kinds: Kind[], limitKb: number, pages: string) => {
    const misses = results
      .filter(({ target }) => kinds.includes(target.kind))
      .flatMap(({ target, scripts }) => {
        if (!scripts || scripts.error)
          return [`${target.path} (${target.missing ?? scripts?.error ?? 'not measured'})`];
        return scripts.gzipBytes <= limitKb * 1024 ? [] : [`${target.path} ${kb(scripts.gzipBytes)} KB`];
      });
    return [`<= ${limitKb} KB gzip JS before interaction on ${pages}`, misses.length === 0, misses] as const;
  };
  const budgets = [
    [
      `build < ${BUDGET.buildSeconds} s (${buildSeconds.toFixed(1)} s)`,
      buildSeconds < BUDGET.buildSeconds,
      [],
    ] as const,
    everyPage(
      `performance >= ${BUDGET.performance} on each public page`,
      (lh) => lh.performance,
      (value) => value >= BUDGET.performance,
      SIGNED_IN,
    ),
    everyPage(
      'performance = 1.00 on each signed-in screen',
      (lh) => lh.performance,
      (value) => value >= BUDGET.perfect,
      PUBLIC,
    ),
    everyPage(
      'accessibility = 1.00 on each page',
      (lh) => lh.accessibility,
      (value) => value >= BUDGET.perfect,
    ),
    everyPage(
      'best practices = 1.00 on each page',
      (lh) => lh.bestPractices,
      (value) => value >= BUDGET.perfect,
    ),
    // Not the shared estimate nor the signed-in screens: they are noindex on purpose (a seller's
    // figures behind a private link, an account's screens), and Lighthouse's SEO category scores
    // "blocked from indexing" against any page.
    everyPage(
      'SEO = 1.00 on each public page but /estimate/{uuid} (noindex)',
      (lh) => lh.seo,
      (value) => value >= BUDGET.perfect,
      ['estimate', ...SIGNED_IN],
    ),
    everyPage(
      `CLS < ${BUDGET.cls} on each page`,
      (lh) => lh.cls,
      (value) => value < BUDGET.cls,
    ),
    jsBudget(['home', 'county', 'town'], BUDGET.jsKb, 'the home, county and town pages'),
    jsBudget(['agent', 'estimate'], BUDGET.dynamicJsKb, '/r/{slug} and /estimate/{uuid}'),
    jsBudget(SIGNED_IN, BUDGET.signedInJsKb, 'each dashboard and admin screen, signed in'),
  ];
  console.log('');
  for (const [label, ok, misses] of budgets) {
    console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}${misses.length > 0 ? `: ${misses.join(', ')}` : ''}`);
  }
  console.log(`\n${measured.length} of ${results.length} pages measured, build of ${htmlFiles} HTML files.`);
  return budgets.every(([, ok]) => ok) ? 0 : 1;
}

process.once('SIGINT', () => {
  void cleanUp().then(() => process.exit(130));
});
try {
  process.exitCode = await main();
} catch (error) {
  console.error(`bench:web failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
