// `npm run build`'s last step: the functions a visitor's request starts (netlify/bundled/*.mts: `api`
// and `pages`) bundled by us with esbuild into .netlify/v1/functions/<name>/ (the directory Netlify's
// build takes functions from besides netlify/functions), each entry's config saying nodeBundler
// 'none' so that Netlify ships them as built. Why (decision 0026, amendment 3): Netlify's own bundler
// for v2 functions leaves every package as separate files, whole (zod with its 40 locales, every
// route's schemas), and puts lazily imported code into the one file, so a cold start compiled and
// ran all of it. Bundled here, packages are tree-shaken and each route group
// (src/app/api-groups.server.ts) is a chunk of its own, loaded by the first request that needs it.
//
// The other functions (netlify/functions/*.mts) stay with Netlify's bundler: api-images needs sharp's
// native files traced, and the scheduled jobs start once in a while, not for a visitor.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

export const BUNDLED_SOURCES = 'netlify/bundled';
/** Netlify's Frameworks API directory for functions (docs/research/netlify-platform.md, N-frameworks). */
export const BUNDLED_OUT = '.netlify/v1/functions';

/** The names of the functions bundled here: one per netlify/bundled/*.mts. */
export const bundledFunctions = (): string[] =>
  readdirSync(BUNDLED_SOURCES)
    .filter((file) => file.endsWith('.mts'))
    .map((file) => file.replace(/\.mts$/, ''));

/**
 * Node's `require` for the CommonJS packages inside an ES module bundle (pdf-lib, the Neon driver's
 * dependencies), as Netlify's own bundler adds it.
 */
const REQUIRE_SHIM =
  'import { createRequire as __bundledRequire } from "node:module"; const require = __bundledRequire(import.meta.url);';

/** How one function is bundled; the bundling tests build with the same options (write: false). */
export function bundleOptions(name: string): BuildOptions & { outdir: string; metafile: true } {
  return {
    entryPoints: { [name]: join(BUNDLED_SOURCES, `${name}.mts`) },
    outdir: join(BUNDLED_OUT, name),
    bundle: true,
    // Chunks for what is imported lazily (route groups, pdf-lib, jose, React's server renderer).
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    // PGlite is the local database only (a deployed function always has DATABASE_URL); sharp runs in
    // api-images alone. Neither goes into these functions; reaching them here fails loudly.
    external: ['@electric-sql/pglite', '@electric-sql/pglite/*', 'sharp'],
    banner: { js: REQUIRE_SHIM },
    // A package's ES module build where it has one and no `exports` map says otherwise (pdf-lib):
    // an `import()` of a CommonJS module gets only its `default` export in a split bundle, while
    // Node itself finds CommonJS's named exports; an ES build has real ones.
    mainFields: ['module', 'main'],
    metafile: true,
    logLevel: 'warning',
  };
}

/** Bundles every function of netlify/bundled into BUNDLED_OUT, replacing what a previous build left. */
export async function buildFunctions(): Promise<void> {
  for (const name of bundledFunctions()) {
    const options = bundleOptions(name);
    rmSync(options.outdir, { recursive: true, force: true });
    await build(options);
  }
}

if (process.argv[1]?.endsWith('build-functions.ts')) {
  await buildFunctions();
  console.log(`Bundled ${bundledFunctions().join(', ')} into ${BUNDLED_OUT}/ (scripts/build-functions.ts)`);
}
