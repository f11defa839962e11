// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

export default defineConfig({
  output: 'static',
  integrations: [react()],
  // Estimate and agent pages are static shells rewritten by public/_redirects, so URLs end without a slash.
  trailingSlash: 'ignore',
  build: { format: 'directory' },
});
