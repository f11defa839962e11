import { readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundledFunctions, bundleOptions } from '../../scripts/build-functions.ts';

/**
 * What each Netlify function loads (decision 0026). The functions Netlify bundles
 * (netlify/functions/*.mts), from their own code bundled as Netlify bundles it (esbuild, packages
 * external); those we bundle (netlify/bundled/*.mts: api, pages), as scripts/build-functions.ts does.
 * For the first kind, Two things are held here, in a second, without a Netlify build:
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
    expect(FUNCTIONS).toEqual(
      expect.arrayContaining(['api-images', 'deliver-email', 'sync-crm', 'send-seller-updates', 'deliver-webhooks']),
    );
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
    expect(reached.has('sharp')).toBe(name === 'api-images');
    expect(reached.has('pdf-lib')).toBe(['api-images', 'deliver-email'].includes(name));
    // The browser's data library is no part of a server function.
    expect(reached.has('@tanstack/react-query')).toBe(false);
  });

  it.each(FUNCTIONS)('%s loads React only if it renders pages', async (name) => {
    const { static: loaded, dynamic } = await importsOf(name);
    const react = [...loaded, ...dynamic].filter((specifier) => ['react', 'react-dom'].includes(specifier));
    // Only the pages function renders (/r/, /estimate/, /offers/), and it is bundled apart (below).
    expect(react, name).toEqual([]);
  });

  // Decision 0036: a worker runs the file its pool module is in
  // (new Worker(new URL(import.meta.url))). Bundled, that is the function's one output file, so the
  // pool and every job module it may be asked to run must be in that same file.
  it.each([
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

const BUNDLED = bundledFunctions();

/** A function of netlify/bundled as the build bundles it, and what its cold start loads. */
async function shippedBundle(name: string) {
  const { metafile } = await build({ ...bundleOptions(name), write: false });
  const outputs = Object.entries(metafile.outputs);
  const source = `netlify/bundled/${name}.mts`;
  // Every lazily imported module is an entry point of its own chunk too: the function's is its source's.
  const entry = outputs.find(([, output]) => output.entryPoint === source)?.[0];
  // What loads before the function answers anything: its entry and the chunks it imports statically.
  const atStart = new Set<string>();
  for (let pending = entry ? [entry] : []; pending.length > 0;) {
    const next = pending.pop() ?? '';
    if (atStart.has(next)) continue;
    atStart.add(next);
    for (const { path, kind } of metafile.outputs[next]?.imports ?? [])
      if (kind === 'import-statement') pending.push(path);
  }
  const modulesAtStart = new Set([...atStart].flatMap((output) => Object.keys(metafile.outputs[output]?.inputs ?? {})));
  const externals = outputs.flatMap(([, output]) => output.imports.filter((imported) => imported.external));
  return { metafile, modulesAtStart, externals };
}

const packagesIn = (modules: Iterable<string>): Set<string> =>
  new Set([...modules].flatMap((module) => /node_modules\/((@[^/]+\/)?[^/]+)/.exec(module)?.[1] ?? []));

describe('the functions we bundle (scripts/build-functions.ts)', () => {
  it('are api and pages', () => {
    expect(BUNDLED.sort()).toEqual(['api', 'pages']);
  });

  /** The packages left out of each bundle: PGlite, and sharp where a route may reach it. */
  const LEFT_OUT: Record<string, string[]> = {
    api: ['@electric-sql/pglite', 'sharp'],
    // The pages read an agent's stored defaults, no longer the settings routes (which save logos): no sharp.
    pages: ['@electric-sql/pglite'],
  };

  it.each(BUNDLED)('%s bundles every package but PGlite (and sharp), which it never loads at start', async (name) => {
    const packages = (await shippedBundle(name)).externals.filter(({ path }) => !isBuiltin(path));
    expect(new Set(packages.map(({ path }) => packageOf(path)))).toEqual(new Set(LEFT_OUT[name]));
    // Imported where they are used (a local run opening PGlite, an image upload, which api-images
    // answers): dynamically, never at a cold start; neither is in the zip (nodeBundler 'none').
    expect(packages.filter(({ kind }) => kind !== 'dynamic-import')).toEqual([]);
  });

  it('api starts with no route group, no React and none of the heavy packages it uses now and then', async () => {
    const { metafile, modulesAtStart } = await shippedBundle('api');
    expect([...packagesIn(modulesAtStart)].sort()).toEqual(['@neondatabase/serverless', 'hono', 'zod']);
    // Pages are the pages function's: the API bundles no React, even for later.
    expect([...packagesIn(Object.keys(metafile.inputs))].filter((name) => name.startsWith('react'))).toEqual([]);
    // Every module a route group loads (src/app/api-groups.server.ts) waits for its first request.
    const groups = metafile.inputs['src/app/api-groups.server.ts']?.imports ?? [];
    const groupModules = groups.filter(({ kind }) => kind === 'dynamic-import').map(({ path }) => path);
    expect(groupModules.length).toBeGreaterThanOrEqual(25);
    expect(groupModules.filter((module) => modulesAtStart.has(module))).toEqual([]);
    // zod is tree-shaken: no locale but the English one it configures (import * as z, decision 0026).
    expect([...modulesAtStart].filter((module) => module.includes('zod/v4/locales/')).sort()).toEqual([
      'node_modules/zod/v4/locales/en.js',
    ]);
  });

  it('pages loads React, and the API none of its routes', async () => {
    const { metafile, modulesAtStart } = await shippedBundle('pages');
    expect(packagesIn(Object.keys(metafile.inputs))).toContain('react-dom');
    expect([...modulesAtStart].filter((module) => module.includes('api-groups'))).toEqual([]);
  });

  // Decision 0036: a worker runs the file its pool module is in (new Worker(new URL(import.meta.url))):
  // bundled with chunks, that is the pool's chunk, and a job's module is imported by its chunk's URL.
  it('api carries the worker pool and its jobs in chunks of their own file tree', async () => {
    const { metafile } = await build({ ...bundleOptions('api'), write: false });
    const inputs = Object.keys(metafile.inputs);
    for (const module of ['worker-pool.server.ts', 'image-job.server.ts', 'net-sheet-pdf.server.ts']) {
      expect(
        inputs.some((input) => input.endsWith(module)),
        module,
      ).toBe(true);
    }
  });
});
