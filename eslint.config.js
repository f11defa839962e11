// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Server-only modules: `*.server.ts`, the ground floor's server half (src/platform/) and the composition root (src/app/). */
const serverOnly = {
  patterns: [
    {
      group: ['**/*.server', '**/*.server.ts', '**/platform/**', '**/app/**'],
      message: 'Islands and shared modules run in the browser: they must not import server-only code.',
    },
  ],
};

export default defineConfig(
  {
    ignores: [
      ...['dist/', '.astro/', '.data/', '.netlify/', 'node_modules/', 'test-results/', 'playwright-report/'],
      // Rules as data in CommonJS, which dependency-cruiser validates against its own schema when it runs.
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  { files: ['**/*.tsx'], ...reactHooks.configs.flat.recommended },
  {
    // Everything the browser may load: islands, their components, shared logic and UI.
    files: ['src/features/**/*.{ts,tsx}', 'src/ui/**/*.{ts,tsx}'],
    ignores: ['src/features/**/*.server.ts', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', serverOnly],
      // Messages are shown in the page (status and alert regions), never in a browser dialog that
      // blocks a phone user.
      'no-alert': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
