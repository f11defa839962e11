/**
 * `npm run build`, before `astro build`: decides from where it runs (Netlify's CONTEXT, NETLIFY,
 * NETLIFY_LOCAL and netlify.toml's BUILD_DATABASE) which database to migrate and seed, or stops
 * and says why (src/platform/build-plan.ts, decision 0030), then migrates and seeds it.
 */
import { buildPlan } from '../src/platform/build-plan.ts';

const plan = buildPlan(process.env);
if (plan.action === 'stop') {
  console.error(plan.say);
  process.exit(1);
}
console.log(plan.say);
// The seed parses the environment as the plan did, so it opens the database the plan named.
await import('./seed.ts');
