// npm start: migrate, seed, build, then serve the site with its API (embedded PGlite by default).
import { spawnSync } from 'node:child_process';
import { unlinkDist } from '../src/app/local-build.server.ts';

const run = (script: string, args: string[] = []) => {
  const result = spawnSync(process.execPath, [...process.execArgv, script, ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run('scripts/seed.ts');
unlinkDist();
const build = spawnSync('npx', ['astro', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
await import('./serve.ts');
