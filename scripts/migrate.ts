import { openDatabase } from '../src/server/database.ts';
import { parseEnv } from '../src/server/env.ts';
import { migrate } from '../src/server/migrate.ts';

const db = await openDatabase(parseEnv());
try {
  const { applied, alreadyApplied } = await migrate(db);
  console.log(
    applied.length > 0 ? `Applied ${applied.join(', ')}.` : 'Nothing to apply.',
    `${alreadyApplied} migration(s) were already applied.`,
  );
} finally {
  await db.close();
}
