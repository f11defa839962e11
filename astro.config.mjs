// @ts-check
import { defineConfig } from 'astro/config';
import { netlifyRewritesInDev } from './src/platform/dev-routing.ts';
import { parseEnv, siteUrl } from './src/platform/env.ts';
import process from 'node:process';
import { URL } from 'node:url';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';

export default defineConfig({
  site: siteUrl(parseEnv()),
  output: 'static',
  integrations: [
    react(),
    // Shells of dynamic routes (the embedded calculator's frame among them), not-found pages and
    // pages behind a login or an e-mailed link are not pages to index.
    sitemap({
      filter: (page) =>
        !/^\/(estimate|offers|r|town-not-found|404|verify-email|reset-password|confirm-email-change|undo-email-change|unsubscribe|updates\/confirm|embed)\/?$|^\/(dashboard|admin)(\/|$)/.test(
          new URL(page).pathname,
        ),
    }),
    netlifyRewritesInDev('public/_redirects'),
  ],
  // Estimate and agent pages are static shells rewritten by public/_redirects, so URLs end without a slash.
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Hashes of Astro's own inline scripts and styles go into a CSP meta tag on every page, with a
  // default-src (audit 2026-11-26, finding 13): nothing loads from or is sent to another origin.
  // Images are the site's own, data: (canvas previews) and blob: (a picked photo before upload);
  // fetch() calls only the site's own API and blob: (Chrome counts reading a picked file's blob URL
  // as a connection: the upload's scaling in the browser). The header (public/_headers) adds what a meta cannot.
  security: {
    csp: {
      directives: ["default-src 'self'", "img-src 'self' data: blob:", "connect-src 'self' blob:"],
    },
  },
  // No code blocks on this site; Shiki's inline styles would break the CSP.
  markdown: { syntaxHighlight: false },
  // `npm run dev` runs the API beside Astro's dev server and proxies /api to it.
  vite: process.env.API_PROXY_TARGET ? { server: { proxy: { '/api': process.env.API_PROXY_TARGET } } } : {},
});
