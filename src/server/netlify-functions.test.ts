import { readdirSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * Netlify bundles every v2 function's own code with esbuild (`bundle: true`, packages left
 * external, no loader for styles or assets: zip-it-and-ship-it's nft bundler) and follows every
 * import, the lazy ones too, though Node never evaluates those. A stylesheet reached from a function
 * (decision 0025: the server renders the pages' React components) failed the deploy while every
 * test passed. This is the same bundling in a second, so such an import fails here first; the real
 * Netlify build runs in `npm test` too (scripts/netlify-check.ts).
 */
const FUNCTIONS_DIR = 'netlify/functions';
const functions = readdirSync(FUNCTIONS_DIR).filter((file) => file.endsWith('.mts'));

describe('Netlify functions bundle as Netlify bundles them', () => {
  it('finds the functions', () => {
    expect(functions).toContain('api.mts');
  });

  it.each(functions)('%s', async (file) => {
    const result = await build({
      entryPoints: [`${FUNCTIONS_DIR}/${file}`],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
  });
});
