import type { Config } from '@netlify/functions';
import { pagesFunction } from '../../src/app/pages-function.ts';

/**
 * The pages a function renders (decision 0026): /r/{slug}, its frame /embed/{slug}, /estimate/{uuid} and /offers/{uuid},
 * apart from the API so that React loads at these pages' cold starts only.
 */
export default pagesFunction();

// Literal paths: SHELL_PAGE_PATHS (src/app/shell-pages.server.ts); Netlify reads this config
// without running the code. A function path runs before the rules of _redirects, so these pages can
// answer 404 and carry the agent's name. preferStatic: a file at the path (the shells /r/, /estimate/
// and /offers/ themselves) is served as a file. nodeBundler 'none': scripts/build-functions.ts has
// bundled it (with its chunks) for Netlify to ship as built.
export const config: Config & { nodeBundler: 'none'; includedFiles: string[] } = {
  path: ['/r/*', '/embed/*', '/estimate/*', '/offers/*'],
  preferStatic: true,
  nodeBundler: 'none',
  includedFiles: ['chunks/**'],
};
