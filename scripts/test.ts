// npm test: every check CI runs, in order, with one summary line at the end.
// Installs what is missing (Chromium, PostgreSQL) with apt-get when run as root on Debian.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { readTestReports } from './test-reports.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const POSTGRES = '/usr/lib/postgresql/15/bin/postgres';
const REPORTS = '.data/test-reports';

function ensureSystemPackages(): void {
  const missing = [...(existsSync(CHROMIUM) ? [] : ['chromium']), ...(existsSync(POSTGRES) ? [] : ['postgresql'])];
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Installing ${missing.join(', ')} with apt-get…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', ...missing],
    ]) {
      if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0) {
        console.error(`apt-get ${args.join(' ')} failed`);
        process.exit(1);
      }
    }
    return;
  }
  console.error(
    `Missing: ${missing.join(', ')}. The tests need Chromium at ${CHROMIUM} (or set CHROMIUM_PATH) and the ` +
      `PostgreSQL 15 server at ${POSTGRES}. On Debian or Ubuntu: sudo apt-get install -y ${missing.join(' ')}`,
  );
  process.exit(1);
}

/** Runs one check; answers whether it passed and the seconds it took (CI's time limit must stay far off). */
function run(label: string, command: string, args: string[]): { ok: boolean; took: number } {
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  const ok = result.status === 0;
  const took = Math.round((performance.now() - started) / 1000);
  console.log(`${ok ? '✔' : '✘'} ${label} (${took} s)`);
  return { ok, took };
}

ensureSystemPackages();
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

/** Each step's name, whether it passed and the seconds it took. */
const steps: [string, boolean, number][] = [];
const step = (name: string, label: string, command: string, args: string[]) => {
  const { ok, took } = run(label, command, args);
  steps.push([name, ok, took]);
};

step('typecheck', 'typecheck (astro check, tsc)', 'npm', ['run', '--silent', 'typecheck']);
step('lint', 'lint', 'npm', ['run', '--silent', 'lint']);
step('format', 'format', 'npm', ['run', '--silent', 'format:check']);
// The floors (.dependency-cruiser.cjs): no back-arrow, no feature cycle beyond the known list.
step('deps', 'deps (dependency-cruiser)', 'npm', ['run', '--silent', 'check:deps']);
const vitest = (project: string) =>
  step(project, project, 'npx', [
    'vitest',
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${REPORTS}/${project}.json`,
  ]);
vitest('unit');
vitest('integration');
step('e2e', 'e2e (Playwright, Chromium)', 'npx', ['playwright', 'test']);
// The build the e2e server made: HTML validation and internal links of every page.
step('site', 'site (html-validate, links)', 'npm', ['run', '--silent', 'check:site']);
// Last, as it rebuilds dist/: Netlify's own build bundles every function, and Netlify's local server
// answers the parity table as the project's own server does (scripts/netlify-check.ts).
step('netlify', "netlify (Netlify's build and local server)", 'npm', ['run', '--silent', 'check:netlify']);

const { passed, failed: failedTests, failures } = readTestReports(REPORTS);
const failedSteps = steps.filter(([, ok]) => !ok).map(([name]) => name);
// A failed check that is not a test (typecheck, lint, format, site) counts as a failure too.
const failed =
  failedTests +
  failedSteps.filter((name) => ['typecheck', 'lint', 'format', 'deps', 'site', 'netlify'].includes(name)).length;

if (failures.length > 0) console.log(`\nFailed tests:\n${failures.map((line) => `  ✘ ${line}`).join('\n')}`);
console.log(`\nSteps: ${steps.map(([name, ok, took]) => `${name} ${ok ? 'ok' : 'FAILED'} (${took} s)`).join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedSteps.length === 0 ? 0 : 1);
