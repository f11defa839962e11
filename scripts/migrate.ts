import { openDatabase } from '../src/platform/database.ts';
import { parseEnv } from '../src/platform/env.ts';
import { migrate } from '../src/platform/migrate.ts';

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
