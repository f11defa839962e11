import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMAGE_FUNCTION_PATHS } from './api-function.ts';
import { LEGACY_TOWN_LOGO_PATH } from './api-app.ts';
import { apiOperations } from './api-groups.server.ts';
import { SHELL_PAGE_PATHS } from './shell-pages.server.ts';

/** The string literals of a function's `config` property (Netlify reads them without running the code). */
function configPaths(file: string, property: 'path' | 'excludedPath'): string[] {
  const source = readFileSync(file, 'utf8');
  const list = new RegExp(`\\b${property}: \\[([^\\]]*)\\]`).exec(source)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** Netlify's path patterns as used here: a literal path, or a prefix ending in `/*`. */
const matches = (pattern: string, path: string): boolean =>
  pattern.endsWith('/*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path;

describe('the image uploads have a function of their own (decision 0026)', () => {
  it('api-images claims exactly IMAGE_FUNCTION_PATHS, and api leaves every one of them to it', () => {
    expect(configPaths('netlify/functions/api-images.mts', 'path')).toEqual([...IMAGE_FUNCTION_PATHS]);
    const apiPaths = configPaths('netlify/bundled/api.mts', 'path');
    const excluded = configPaths('netlify/bundled/api.mts', 'excludedPath');
    for (const pattern of IMAGE_FUNCTION_PATHS) {
      const example = pattern.replace('/*', '/logo');
      if (apiPaths.some((apiPath) => matches(apiPath, example))) expect(excluded, pattern).toContain(pattern);
    }
    expect(IMAGE_FUNCTION_PATHS).toContain(LEGACY_TOWN_LOGO_PATH);
    expect(apiPaths).not.toContain(LEGACY_TOWN_LOGO_PATH);
  });

  it('every operation that takes an image is on a path of api-images', async () => {
    const uploads = (await apiOperations()).filter((operation) => operation.uploads !== undefined);
    expect(uploads.length).toBeGreaterThanOrEqual(5);
    for (const operation of uploads) {
      const path = operation.path.replace(/\{[^}]+\}/g, 'x');
      expect(
        IMAGE_FUNCTION_PATHS.some((pattern) => matches(pattern, path)),
        `${operation.method} ${operation.path} takes an image`,
      ).toBe(true);
    }
  });
});

describe('the pages a function renders have a function of their own (decision 0026)', () => {
  it('pages claims exactly SHELL_PAGE_PATHS, and api none of them', () => {
    expect(configPaths('netlify/bundled/pages.mts', 'path')).toEqual([...SHELL_PAGE_PATHS]);
    const apiPaths = configPaths('netlify/bundled/api.mts', 'path');
    for (const pattern of SHELL_PAGE_PATHS) {
      const example = pattern.replace('/*', '/alexmorgan');
      expect(
        apiPaths.some((apiPath) => matches(apiPath, example)),
        pattern,
      ).toBe(false);
    }
  });
});
