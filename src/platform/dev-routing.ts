import { readFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import { applyCaptures, matchPath, parseRedirects } from './netlify-rules.ts';

/**
 * `npm run dev`: Astro's dev server knows nothing of public/_redirects, so the static shells
 * (/estimate/{uuid}) would 404. This applies the same rewrites there, read from the same file.
 */
export function netlifyRewritesInDev(redirectsFile: string): AstroIntegration {
  return {
    name: 'netlify-rewrites-in-dev',
    hooks: {
      'astro:server:setup': ({ server }) => {
        const rewrites = parseRedirects(readFileSync(redirectsFile, 'utf8')).filter((rule) => rule.status === 200);
        server.middlewares.use((request, _response, next) => {
          const path = (request.url ?? '/').split('?')[0] ?? '/';
          for (const rule of rewrites) {
            const captures = matchPath(rule.from, path);
            if (captures && !path.startsWith('/api/')) {
              request.url = applyCaptures(rule.to, captures).replace(/index\.html$/, '');
              break;
            }
          }
          next();
        });
      },
    },
  };
}
