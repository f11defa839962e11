// The house's floors, checked by dependency-cruiser in npm test (npm run check:deps; decision 0055).
//
// - The ground floor (GROUND: src/platform, src/ui, src/styles): what every feature stands on: the
//   database, HTTP, env, encryption, the edge cache, the operation declarations, the migrations, the
//   UI kit. It imports no feature and nothing above.
// - Features (src/features/<name>/): each may import the ground floor and the features below it in
//   FEATURES, never one above: two features cannot import each other, and there is no feature cycle.
// - The composition root (ROOT: src/app: the app, its groups and document, compose, seed, build data,
//   jobs, the local servers, the functions' entries): imports features; no feature and no ground module imports it.
// - Pages, layouts, Netlify functions and scripts are entries above the root.
//
// No import breaks a rule (issue 24 moved the shared parts down and cut the feature cycles): the check
// fails on any one.

/** The features, lowest first: a feature may import only those before it. */
const FEATURES = [
  'developers',
  'forms',
  'auth',
  'accounts',
  // Below every feature that raises its events (net-sheet's and estimate's estimates, seller-updates,
  // leads) or shows its card (crm, admin); its routes use auth and forms, its card accounts' helpers.
  'webhooks',
  'images',
  'site-images',
  'seo',
  'towns',
  'net-sheet',
  'lead-origin',
  'email',
  'sign-in',
  // The embedded calculator's allowed sites and frame: leads check a host page against its list.
  'embed',
  'crm',
  'seller-updates',
  'leads',
  'site-build',
  'agents',
  'dashboard',
  'admin',
  'estimate',
  'agent-page',
  'content',
  'market',
  'showcase',
  'settings',
  'site',
];

const GROUND = ['^src/platform/', '^src/ui/', '^src/styles/'];
const ROOT = { path: '^src/app/' };
const ENTRIES = '^(src/pages|src/layouts|netlify|scripts)/';

const featureRules = FEATURES.map((feature, index) => ({
  name: `feature-order-${feature}`,
  comment: `${feature} may import only the features below it in FEATURES (.dependency-cruiser.cjs): no feature cycles.`,
  severity: 'error',
  from: { path: `^src/features/${feature}/` },
  to: { path: `^src/features/(${FEATURES.slice(index + 1).join('|') || '$^'})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module cycle: the two ends cannot be read (or loaded) one before the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'ground-imports-no-feature',
      comment: 'The ground floor stands under every feature: it cannot know one.',
      severity: 'error',
      from: { path: GROUND },
      to: { path: '^src/features/' },
    },
    {
      name: 'ground-imports-no-root',
      comment: 'The ground floor cannot import the composition root or an entry.',
      severity: 'error',
      from: { path: GROUND },
      to: { path: [ENTRIES, ROOT.path] },
    },
    {
      name: 'feature-imports-no-root',
      comment:
        'A feature is wired by the composition root (src/app/api-groups.server.ts, compose): it cannot import it.',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: [ENTRIES, ROOT.path] },
    },
    {
      name: 'feature-through-its-public-folder',
      comment:
        "A feature is used through its public folder (src/features/<name>/public/): the rest of it is its own. A folder, not a barrel: each module is still imported on its own, so an island, a function's bundle or a lazily loaded group carries only what it uses.",
      severity: 'error',
      from: { path: '^src/features/([^/]+)/' },
      to: { path: '^src/features/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/public/'] },
    },
    ...featureRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '^src/env\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
