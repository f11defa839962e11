import type { Config } from '@netlify/functions';
import { apiFunction } from '../../src/app/api-function.ts';

export default apiFunction('api');

// Literal paths: Netlify reads this config without running the code. '/sold-api.php' is LEGACY_SOLD_PATH,
// '/town-logo-api.php' LEGACY_TOWN_LOGO_PATH (an image upload: api-images answers it). The pages a
// function renders (/r/*, /estimate/*, /offers/*) are the `pages` function's (decision 0026).
// excludedPath: IMAGE_FUNCTION_PATHS (src/app/api-function.ts), answered by api-images, which carries sharp.
// nodeBundler 'none': scripts/build-functions.ts has bundled it (with its chunks) for Netlify to ship as built.
export const config: Config & { nodeBundler: 'none'; includedFiles: string[] } = {
  path: ['/api/*', '/sold-api.php'],
  excludedPath: ['/api/agents/profile', '/api/upload/*', '/api/images/upload'],
  nodeBundler: 'none',
  includedFiles: ['chunks/**'],
};
