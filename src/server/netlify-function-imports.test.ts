import { readdirSync } from 'node:fs';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * What each Netlify function loads (decision 0026), from its own code bundled as Netlify bundles it
 * (esbuild, packages external). Two things are held here, in a second, without a Netlify build:
 * - a package imported statically anywhere a function reaches is loaded by its every cold start,
 *   even from a module the function imports lazily (esbuild hoists it to the bundle's top): the
 *   heavy ones the API needs only now and then (sharp for uploads, pdf-lib for the PDF, jose for
 *   sessions) and PGlite (never on Netlify) must be imported dynamically, where they are used;
 * - a package a function reaches at all goes into its zip (nft traces dynamic imports too): sharp
 *   and pdf-lib only where they run. The built zips are checked too (scripts/netlify/zip-budget.ts).
 * And first of all, every function bundles: Netlify's bundler follows every import, the lazy ones
 * too, with no loader for stylesheets or assets, so a stylesheet reached from a function (decision
 * 0025's amendment) fails here, as it failed the deploy while Node, never evaluating it, passed.
 */
const FUNCTIONS = readdirSync('netlify/functions')
  .filter((file) => file.endsWith('.mts'))
  .map((file) => file.replace(/\.mts$/, ''));
type FunctionName = string;

const packageOf = (specifier: string): string => /^(@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier;

/** A function bundled as Netlify bundles it: esbuild, packages external, one output file. */
function bundleOf(name: FunctionName) {
  return build({
    entryPoints: [`netlify/functions/${name}.mts`],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    metafile: true,
    outdir: 'out',
    logLevel: 'silent',
  });
}

/** The packages a function imports, statically and dynamically. */
async function importsOf(name: FunctionName): Promise<{ static: Set<string>; dynamic: Set<string> }> {
  const { metafile }: { metafile: Metafile } = await bundleOf(name);
  const found = { static: new Set<string>(), dynamic: new Set<string>() };
  for (const input of Object.values(metafile.inputs)) {
    for (const { path, external, kind } of input.imports) {
      if (!external || path.startsWith('node:')) continue;
      found[kind === 'dynamic-import' ? 'dynamic' : 'static'].add(packageOf(path));
    }
  }
  return found;
}

const LOADED_ON_USE = ['@electric-sql/pglite', 'sharp', 'pdf-lib', 'jose'];

describe('what the Netlify functions load', () => {
  it('finds every function', () => {
    expect(FUNCTIONS).toEqual(expect.arrayContaining(['api', 'api-images', 'deliver-email', 'sync-crm']));
  });

  it.each(FUNCTIONS)('%s bundles, and loads PGlite, sharp, pdf-lib and jose only when it uses them', async (name) => {
    const { static: loaded } = await importsOf(name);
    expect(LOADED_ON_USE.filter((name) => loaded.has(name))).toEqual([]);
    // The test can see packages: every function loads some (zod at least) at start.
    expect(loaded).toContain('zod');
  });

  it.each(FUNCTIONS)('%s reaches sharp and pdf-lib only if it runs them', async (name) => {
    const { static: loaded, dynamic } = await importsOf(name);
    const reached = new Set([...loaded, ...dynamic]);
    // The api and pages functions' code reaches sharp (one app serves both API functions; the pages
    // read agents through the same module), but their zips leave sharp out (netlify.toml) and
    // api-images answers every route that uses it (api-function.ts).
    expect(reached.has('sharp')).toBe(['api', 'api-images', 'pages'].includes(name));
    expect(reached.has('pdf-lib')).toBe(['api', 'api-images', 'deliver-email'].includes(name));
    // The browser's data library is no part of a server function.
    expect(reached.has('@tanstack/react-query')).toBe(false);
  });

  it.each(FUNCTIONS)('%s loads React only if it renders pages', async (name) => {
    const { static: loaded, dynamic } = await importsOf(name);
    const react = [...loaded, ...dynamic].filter((specifier) => ['react', 'react-dom'].includes(specifier));
    // Only the pages function renders (/r/, /estimate/, /offers/); the API's cold starts load no React.
    expect(react.length > 0, `${name} reaches ${react.join(', ') || 'no React'}`).toBe(name === 'pages');
  });

  // Decision 0036: a worker runs the file its pool module is in
  // (new Worker(new URL(import.meta.url))). Bundled, that is the function's one output file, so the
  // pool and every job module it may be asked to run must be in that same file.
  it.each([
    ['api', ['image-job.server.ts', 'net-sheet-pdf.server.ts']],
    ['api-images', ['image-job.server.ts', 'net-sheet-pdf.server.ts']],
    ['deliver-email', ['net-sheet-pdf.server.ts']],
  ])('%s carries its worker pool and jobs in its own file', async (name, jobs) => {
    const { metafile, outputFiles } = await bundleOf(name);
    expect(outputFiles).toHaveLength(1);
    // Reached by static imports from the function: esbuild evaluates such a module when the bundle
    // loads (a worker's too), so its job is declared there; one reached only by import() would not be.
    const reached = new Set<string>();
    const pending = [`netlify/functions/${name}.mts`];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (reached.has(next)) continue;
      reached.add(next);
      for (const { path, kind } of metafile.inputs[next]?.imports ?? []) {
        if (kind === 'import-statement') pending.push(path);
      }
    }
    for (const module of ['worker-pool.server.ts', ...jobs]) {
      expect(
        [...reached].some((input) => input.endsWith(module)),
        module,
      ).toBe(true);
    }
    expect(outputFiles[0]?.text).toContain('new URL(import.meta.url)');
  });
});
