// npm run admin:grant -- email@example.com [more@example.com …]: makes existing agents admins, each only
// once they have proved that address (signed up and followed the e-mailed link, confirmed an e-mail
// change, or followed a password-reset link): an unconfirmed address is not enough (issue 21).
// Unlike ADMIN_EMAILS at seed, it grants again an admin demoted before: it is an operator's act.
import * as z from 'zod';
import { grantAdmin } from '../src/features/auth/admin.server.ts';
import { emailSchema } from '../src/features/auth/public/auth-schemas.ts';
import { openDatabase } from '../src/platform/database.ts';
import { parseEnv } from '../src/platform/env.ts';
import { migrate } from '../src/platform/migrate.ts';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
if (args.length === 0) {
  console.error('Usage: npm run admin:grant -- email@example.com [another@example.com …]');
  process.exit(2);
}
const parsed = z.array(emailSchema('Email is required')).safeParse(args);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`${String(args[Number(issue.path[0])])}: ${issue.message}`);
  process.exit(2);
}

const env = parseEnv();
const db = await openDatabase(env);
let exitCode = 0;
try {
  await migrate(db);
  const { granted, missing } = await grantAdmin(db, parsed.data);
  for (const email of granted) console.log(`${email} is an admin now.`);
  for (const email of missing) {
    console.error(
      `No agent has verified the e-mail ${email}: nothing changed. They must sign up and follow the e-mailed ` +
        'link first, or, with an older account, use "Forgot password" once (check the spelling).',
    );
    exitCode = 1;
  }
} finally {
  await db.close();
}
process.exit(exitCode);
