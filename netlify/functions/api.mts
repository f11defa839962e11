import type { Config } from '@netlify/functions';
import { apiFunction } from '../../src/server/api-function.ts';

export default apiFunction('api');

// Literal paths: Netlify reads this config without running the code. '/sold-api.php' is LEGACY_SOLD_PATH,
// '/town-logo-api.php' LEGACY_TOWN_LOGO_PATH (an image upload: api-images answers it);
// '/r/*', '/estimate/*' and '/offers/*' are SHELL_PAGE_PATHS (src/features/site/shell-pages.server.ts): a function
// path runs before the rules of _redirects, so these pages can answer 404 and carry the agent's name.
// preferStatic: a file at the path (the shells /r/, /estimate/ and /offers/ themselves) is served as a file.
// excludedPath: IMAGE_FUNCTION_PATHS (src/server/api-function.ts), answered by api-images, which carries sharp.
export const config: Config = {
  path: ['/api/*', '/sold-api.php', '/r/*', '/estimate/*', '/offers/*'],
  excludedPath: ['/api/agents/profile', '/api/upload/*', '/api/images/upload'],
  preferStatic: true,
};
