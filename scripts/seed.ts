import { emailProviderProblem } from '../src/app/compose/email.ts';
import { openDatabase } from '../src/platform/database.ts';
import { isProduction, parseEnv } from '../src/platform/env.ts';
import { featuredAgentFrom } from '../src/platform/featured-agent.ts';
import { migrate } from '../src/platform/migrate.ts';
import { DEMO_ACCOUNTS, seed, seedSampleMarketData, type SeededAccounts } from '../src/app/seed.ts';

const env = parseEnv();
const db = await openDatabase(env);
try {
  await migrate(db);
  const agent = featuredAgentFrom(env);
  const demo = !isProduction(env);
  let result: SeededAccounts | undefined;
  await seed(db, agent, { demo, adminEmails: env.ADMIN_EMAILS, onAccounts: (accounts) => (result = accounts) });
  console.log(`Seeded the featured agent (${agent.fullName}, /r/${agent.slug}) and the site settings.`);
  if (!result) throw new Error('The seed did not report its accounts');
  for (const email of result.demoAccountsCreated) {
    const account = DEMO_ACCOUNTS.find((candidate) => candidate.email === email);
    if (account) console.log(`Demo account (local only): ${account.email} / ${account.password}`);
  }
  if (result.admins.granted.length > 0) console.log(`Admins (ADMIN_EMAILS): ${result.admins.granted.join(', ')}`);
  if (result.admins.missing.length > 0) {
    console.warn(
      `ADMIN_EMAILS names no agent who has verified: ${result.admins.missing.join(', ')} (they become admins at ` +
        'the next seed after they sign up and follow the e-mailed link, or run npm run admin:grant -- EMAIL then).',
    );
  }
  const sampleRuns = await seedSampleMarketData(db, env);
  for (const run of sampleRuns ?? []) {
    console.log(
      run.status === 'succeeded'
        ? `Sample market data (local only, labelled "Sample data" on the town pages): ${run.source}, ${run.townsUpdated} towns`
        : `Sample market data: ${run.source} failed (${run.error ?? 'unknown error'})`,
    );
  }
  // Every production start (npm start) and deploy (Netlify's build) seeds: neither goes live
  // without a way to send account e-mail (security audit, finding 9).
  const mailProblem = await emailProviderProblem(db, env);
  if (mailProblem) {
    console.error(mailProblem);
    process.exitCode = 1;
  }
} finally {
  await db.close();
}
