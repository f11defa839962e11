// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

export default defineConfig({
  output: 'static',
  integrations: [react()],
  // Estimate and agent pages are static shells rewritten by public/_redirects, so URLs end without a slash.
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  // Hashes of Astro's own inline scripts and styles go into a CSP meta tag on every page.
  security: { csp: true },
  // No code blocks on this site; Shiki's inline styles would break the CSP.
  markdown: { syntaxHighlight: false },
});
