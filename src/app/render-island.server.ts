/**
 * React's server renderer, in a module of its own that shell-pages.server.ts imports on the first
 * page it renders (decision 0026: the largest package the pages load, so not at a cold start).
 * Imported statically here, not with `import('react-dom/server')` there: react-dom/server is
 * CommonJS, and a bundler gives an `import()` of CommonJS only its `default` export (esbuild's code
 * splitting, scripts/build-functions.ts), while a static import is given its named exports.
 */
export { renderToString } from 'react-dom/server';
