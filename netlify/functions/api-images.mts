import type { Config } from '@netlify/functions';
import { apiFunction } from '../../src/app/api-function.ts';
// Netlify's bundler puts this function in one file, which its workers load: the jobs must be declared
// when it loads (src/app/worker-jobs.server.ts).
import '../../src/app/worker-jobs.server.ts';

/**
 * The API's image uploads (decision 0026): the same app as `api`, on the paths whose routes
 * re-encode images with sharp, so that only this function's zip carries sharp and libvips.
 */
export default apiFunction('api-images');

// Literal paths: IMAGE_FUNCTION_PATHS (src/app/api-function.ts); Netlify reads this config without running it.
export const config: Config = {
  path: ['/api/agents/profile', '/api/upload/*', '/api/images/upload', '/town-logo-api.php'],
};
