import { openDatabase } from '../src/server/database.ts';
import { isProduction, parseEnv } from '../src/server/env.ts';
import { featuredAgentFrom } from '../src/server/featured-agent.ts';
import { migrate } from '../src/server/migrate.ts';
import { seed } from '../src/server/seed.ts';

const env = parseEnv();
const db = await openDatabase(env);
try {
  await migrate(db);
  const agent = featuredAgentFrom(env);
  await seed(db, agent, { demo: !isProduction(env) });
  console.log(`Seeded the featured agent (${agent.fullName}, /r/${agent.slug}) and the site settings.`);
} finally {
  await db.close();
}
