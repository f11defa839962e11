/**
 * Admin bootstrap and the demo accounts: ADMIN_EMAILS applied at seed, the local demo admin and
 * agent (who can log in over HTTP), and `npm run admin:grant` run as a real process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { grantAdmin } from '../../src/features/auth/admin.server.ts';
import { openPglite } from '../../src/platform/pglite.ts';
import { migrate } from '../../src/platform/migrate.ts';
import { DEMO_ACCOUNTS, seed as seedDb, type SeededAccounts, type SeedOptions } from '../../src/app/seed.ts';
import { BACKENDS } from '../support/backends.ts';
import { expectJson } from '../support/api-suite.ts';
import { createAccount, useAuthSuite } from '../support/auth-suite.ts';
import { publicAgentResponse } from '../support/schemas.ts';

const loginResponse = z.object({
  success: z.literal(true),
  agent: z.object({ email: z.string(), slug: z.string(), is_admin: z.boolean(), status: z.string() }).loose(),
});

describe.each(BACKENDS)('admins and demo accounts on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authadmin');

  /** Seeds again and answers what the seed reported about the accounts. */
  async function seed(options: Omit<SeedOptions, 'onAccounts'>): Promise<SeededAccounts> {
    let reported: SeededAccounts | undefined;
    await seedDb(suite.db, suite.test.featuredAgent, { ...options, onAccounts: (accounts) => (reported = accounts) });
    if (!reported) throw new Error('the seed did not report its accounts');
    return reported;
  }

  it('seeds the demo admin and agent once; they log in with the documented passwords', async () => {
    const first = await seed({ demo: true });
    expect(first.demoAccountsCreated).toEqual(['admin@example.com', 'agent@example.com']);
    const again = await seed({ demo: true });
    expect(again.demoAccountsCreated).toEqual([]);

    expect(DEMO_ACCOUNTS.map(({ email, password }) => [email, password])).toEqual([
      ['admin@example.com', 'demo-admin-password'],
      ['agent@example.com', 'demo-agent-password'],
    ]);
    const admin = await expectJson(
      await suite.client().post('/api/auth/login', { email: 'admin@example.com', password: 'demo-admin-password' }),
      200,
      loginResponse,
    );
    expect(admin.agent).toMatchObject({ is_admin: true, status: 'active' });
    const agent = await expectJson(
      await suite.client().post('/api/auth/login', { email: 'agent@example.com', password: 'demo-agent-password' }),
      200,
      loginResponse,
    );
    expect(agent.agent).toMatchObject({ is_admin: false, status: 'active', slug: 'demoagent' });
    // A complete profile: the calculator page works.
    const page = await expectJson(await suite.api.fetch('/api/agents/public/demoagent'), 200, publicAgentResponse);
    expect(page.profile_complete).toBe(true);
    const [verified] = await suite.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM agents WHERE email IN ('admin@example.com', 'agent@example.com')
          AND email_verified_at IS NOT NULL`,
    );
    expect(verified?.n).toBe(2);
  });

  it('a seed without demo (production) creates no demo account', async () => {
    const result = await seed({ demo: false });
    expect(result.demoAccountsCreated).toEqual([]);
  });

  it('applies ADMIN_EMAILS to existing agents at seed, in any case, and reports the missing', async () => {
    const account = await createAccount(suite);
    const result = await seed({
      demo: false,
      adminEmails: [account.email.toUpperCase(), 'not.yet.signed.up@example.com'],
    });
    expect(result.admins).toEqual({
      granted: [account.email],
      missing: ['not.yet.signed.up@example.com'],
      alreadyGranted: [],
    });
    const login = await expectJson(
      await suite.client().post('/api/auth/login', { email: account.email, password: account.password }),
      200,
      loginResponse,
    );
    expect(login.agent.is_admin).toBe(true);
  });

  it('grantAdmin ignores blanks and duplicates', async () => {
    const account = await createAccount(suite);
    expect(await grantAdmin(suite.db, [' ', account.email, ` ${account.email} `])).toEqual({
      granted: [account.email],
      missing: [],
      alreadyGranted: [],
    });
    expect(await grantAdmin(suite.db, [])).toEqual({ granted: [], missing: [], alreadyGranted: [] });
  });
});

describe('npm run admin:grant', () => {
  it('grants an existing agent, says clearly when there is none, and refuses a non-address', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'admin-grant-'));
    try {
      const db = await openPglite(join(dataDir, 'pglite'));
      try {
        await migrate(db);
        await db.query(
          `INSERT INTO agents (first_name, last_name, email, slug, status, email_verified_at, verified_email)
           VALUES ('Robin', 'Lee', 'Robin.Lee@example.com', 'robinlee', 'active', now(), 'robin.lee@example.com'),
                  ('Una', 'Proven', 'una@example.com', 'unaproven', 'active', now(), NULL)`,
        );
      } finally {
        await db.close();
      }
      const run = (...args: string[]) =>
        spawnSync(join('node_modules', '.bin', 'tsx'), ['scripts/admin-grant.ts', ...args], {
          encoding: 'utf8',
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', APP_ENV: 'development', NETLIFY: '' },
        });

      const granted = run('--', 'ROBIN.LEE@example.com');
      expect(granted.status, granted.stderr).toBe(0);
      expect(granted.stdout).toContain('robin.lee@example.com is an admin now.');

      const missing = run('--', 'nobody@example.com');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('No agent has verified the e-mail nobody@example.com: nothing changed.');
      // An address its agent never proved (e.g. changed before e-mail changes needed a link) is not enough.
      const unproven = run('--', 'una@example.com');
      expect(unproven.status).toBe(1);
      expect(unproven.stderr).toContain('No agent has verified the e-mail una@example.com: nothing changed.');

      const invalid = run('not-an-email');
      expect(invalid.status).toBe(2);
      expect(invalid.stderr).toContain('not-an-email: Email is invalid');

      const usage = run();
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('Usage: npm run admin:grant -- email@example.com');

      const check = await openPglite(join(dataDir, 'pglite'));
      try {
        const [row] = await check.query<{ is_admin: boolean }>(`SELECT is_admin FROM agents WHERE slug = 'robinlee'`);
        expect(row?.is_admin).toBe(true);
      } finally {
        await check.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
