import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { grantAdmin, type GrantResult } from '../features/auth/admin.server.ts';
import { hashPassword } from '../features/auth/public/passwords.server.ts';
import { SYSTEM_DEFAULTS } from '../features/net-sheet/public/estimate.ts';
import type { RunRecord } from '../features/market/data-runs.server.ts';
import { csvFromFile, soldFromFile } from '../features/market/feeds.server.ts';
import { refreshMarketData } from '../features/market/refresh.server.ts';
import { SHOWCASE_FALLBACK } from '../features/showcase/showcase.ts';
import { seedTowns } from '../features/towns/towns-seed.server.ts';
import type { Db } from '../platform/db.ts';
import { isProduction, type Env } from '../platform/env.ts';
import type { FeaturedAgent } from '../platform/featured-agent.ts';

/** Demo pictures for the showcase card until an admin uploads real ones. */
const DEMO_SHOWCASE_IMAGES = '/showcase/demo-1.svg,/showcase/demo-2.svg,/showcase/demo-3.svg';

/** A second agent for local demos: active but with an unfinished profile (no professional title). */
const DEMO_UNFINISHED_AGENT = {
  first_name: 'Jamie',
  last_name: 'Rivera',
  email: 'jamie.rivera@example.com',
  slug: 'jamierivera',
} as const;

/**
 * Accounts to try the product with on a developer's machine (never seeded in production): an
 * administrator and an agent with a complete profile, both active and verified. Created once;
 * later seeds leave them (and any password changed since) alone.
 */
export const DEMO_ACCOUNTS = [
  {
    first_name: 'Avery',
    last_name: 'Admin',
    email: 'admin@example.com',
    password: 'demo-admin-password',
    slug: 'demoadmin',
    is_admin: true,
    phone: '6315550100',
    brokerage: 'Harbor Point Realty (demo)',
    professional_title: 'Broker/Principal Broker',
    license_number: '10401000001',
  },
  {
    first_name: 'Dana',
    last_name: 'Demo',
    email: 'agent@example.com',
    password: 'demo-agent-password',
    slug: 'demoagent',
    is_admin: false,
    phone: '5165550101',
    brokerage: 'Harbor Point Realty (demo)',
    professional_title: 'Licensed Real Estate Salesperson',
    license_number: '10401000002',
  },
] as const;

export interface SeedOptions {
  /** Local demo data (never in production): demo showcase images, an unfinished agent, demo accounts. */
  demo: boolean;
  /**
   * ADMIN_EMAILS (already lower-cased): each becomes an admin at the first seed after an agent has
   * proved the address, and only then (grantAdmin with `once`).
   */
  adminEmails?: readonly string[];
  /** Told what became of the accounts once the seed has committed (scripts/seed.ts prints it). */
  onAccounts?: (accounts: SeededAccounts) => void;
}

export interface SeededAccounts {
  /** What became of adminEmails. */
  admins: GrantResult;
  /** The demo accounts created by this run (e-mails); empty when they existed already. */
  demoAccountsCreated: string[];
}

/** Hashes of the demo passwords, only for the demo accounts that do not exist yet (hashing is slow). */
async function missingDemoAccounts(db: Db): Promise<((typeof DEMO_ACCOUNTS)[number] & { password_hash: string })[]> {
  const existing = await db.query<{ email: string }>(
    'SELECT lower(email) AS email FROM agents WHERE lower(email) = ANY ($1::text[]) OR slug = ANY ($2::text[])',
    [DEMO_ACCOUNTS.map((account) => account.email), DEMO_ACCOUNTS.map((account) => account.slug)],
  );
  const taken = new Set(existing.map((row) => row.email));
  const missing = DEMO_ACCOUNTS.filter((account) => !taken.has(account.email));
  return Promise.all(
    missing.map(async (account) => ({ ...account, password_hash: await hashPassword(account.password) })),
  );
}

/**
 * Idempotent: the featured agent's identity follows configuration on every run; their calculator
 * settings and the site settings are created once and then left to their owners. The towns follow
 * src/features/towns/towns.data.json (see seedTowns).
 */
export async function seed(
  db: Db,
  agent: FeaturedAgent,
  options: SeedOptions = { demo: false },
): Promise<{ agentId: number; towns: number }> {
  const demoAccounts = options.demo ? await missingDemoAccounts(db) : [];
  let accounts: SeededAccounts = {
    admins: { granted: [], missing: [], alreadyGranted: [] },
    demoAccountsCreated: [],
  };
  const seeded = await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO agents (first_name, last_name, email, phone, slug, brokerage, status, license_number, website,
                           professional_title, brokerage_street, brokerage_city, brokerage_state, brokerage_zip)
       VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (slug) DO UPDATE SET
         first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name, email = EXCLUDED.email,
         phone = EXCLUDED.phone, brokerage = EXCLUDED.brokerage, status = 'active',
         license_number = EXCLUDED.license_number, website = EXCLUDED.website,
         professional_title = EXCLUDED.professional_title, brokerage_street = EXCLUDED.brokerage_street,
         brokerage_city = EXCLUDED.brokerage_city, brokerage_state = EXCLUDED.brokerage_state,
         brokerage_zip = EXCLUDED.brokerage_zip, updated_at = now()
       RETURNING id`,
      [
        agent.firstName,
        agent.lastName,
        agent.email,
        agent.phone,
        agent.slug,
        agent.brokerage,
        agent.licenseNumber,
        agent.website,
        agent.professionalTitle,
        agent.office.street,
        agent.office.city,
        agent.office.state,
        agent.office.zip,
      ],
    );
    if (!row) throw new Error('Seeding the featured agent returned no row');
    await tx.query(
      `INSERT INTO agent_settings (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                   transfer_tax_rate_per_1000, default_commission_percent)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (agent_id) DO NOTHING`,
      [
        row.id,
        SYSTEM_DEFAULTS.attorneyFeeCents,
        SYSTEM_DEFAULTS.recordingFeeCents,
        SYSTEM_DEFAULTS.transferTaxRatePer1000,
        SYSTEM_DEFAULTS.commissionPercent,
      ],
    );
    await tx.query(
      `INSERT INTO site_settings (id, showcase_property_price_cents, showcase_property_address,
                                  showcase_property_beds, showcase_property_baths, showcase_property_sqft,
                                  showcase_images)
       VALUES (1, $1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
      [
        SHOWCASE_FALLBACK.priceCents,
        SHOWCASE_FALLBACK.address,
        SHOWCASE_FALLBACK.beds,
        SHOWCASE_FALLBACK.baths,
        SHOWCASE_FALLBACK.sqft,
        options.demo ? DEMO_SHOWCASE_IMAGES : '',
      ],
    );
    await tx.query(
      `INSERT INTO seo_settings (id, seo_title, seo_description, og_title, og_description, twitter_card)
       VALUES (1, $1, $2, $3, $4, 'summary_large_image') ON CONFLICT (id) DO NOTHING`,
      [
        'Long Island Home Sale Net Proceeds Calculator',
        'See what you would walk away with when you sell your Long Island home: commission, NY transfer tax, attorney and recording fees.',
        `${agent.fullName}: Long Island net proceeds calculator`,
        'Sell your Nassau or Suffolk County home knowing your number: a free net proceeds estimate in seconds.',
      ],
    );
    if (options.demo) {
      await tx.query(
        `INSERT INTO agents (first_name, last_name, email, slug, status)
         VALUES ($1, $2, $3, $4, 'active') ON CONFLICT (slug) DO NOTHING`,
        [
          DEMO_UNFINISHED_AGENT.first_name,
          DEMO_UNFINISHED_AGENT.last_name,
          DEMO_UNFINISHED_AGENT.email,
          DEMO_UNFINISHED_AGENT.slug,
        ],
      );
    }
    const demoAccountsCreated: string[] = [];
    for (const account of demoAccounts) {
      // ON CONFLICT DO NOTHING: an account someone made with this e-mail or slug is left as it is.
      const created = await tx.query<{ id: number }>(
        `INSERT INTO agents (first_name, last_name, email, phone, password_hash, slug, brokerage, status, is_admin,
                             license_number, professional_title, email_verified_at, verified_email)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $10, now(), lower($3))
         ON CONFLICT DO NOTHING
         RETURNING id`,
        [
          account.first_name,
          account.last_name,
          account.email,
          account.phone,
          account.password_hash,
          account.slug,
          account.brokerage,
          account.is_admin,
          account.license_number,
          account.professional_title,
        ],
      );
      const [demo] = created;
      if (!demo) continue;
      demoAccountsCreated.push(account.email);
      await tx.query(
        `INSERT INTO agent_settings (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                     transfer_tax_rate_per_1000, default_commission_percent)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (agent_id) DO NOTHING`,
        [
          demo.id,
          SYSTEM_DEFAULTS.attorneyFeeCents,
          SYSTEM_DEFAULTS.recordingFeeCents,
          SYSTEM_DEFAULTS.transferTaxRatePer1000,
          SYSTEM_DEFAULTS.commissionPercent,
        ],
      );
    }
    // Once per address (admin_grants), and only to an agent who proved it: see grantAdmin.
    accounts = { admins: await grantAdmin(tx, options.adminEmails ?? [], { once: true }), demoAccountsCreated };
    const towns = await seedTowns(tx);
    return { agentId: row.id, towns };
  });
  options.onAccounts?.(accounts);
  return seeded;
}

/**
 * The shipped sample market files (the formats `npm run data:refresh -- --zhvi FILE --sold FILE`
 * reads): a Zillow ZHVI file and a RESO JSON file for eight towns, with fictional addresses,
 * agents and offices.
 */
export const SAMPLE_MARKET_FILES = {
  zhvi: fileURLToPath(new URL('../../data/sample/zhvi.csv', import.meta.url)),
  sold: fileURLToPath(new URL('../../data/sample/sold.json', import.meta.url)),
  /** The files' own date: their sales (June to November 2026) are the 12 months before it, whenever they are imported. */
  asOf: new Date('2026-11-15T12:00:00Z'),
};

/** Is `path` one of the shipped sample files (whatever the working directory)? */
export const isSampleMarketFile = (path: string): boolean =>
  [SAMPLE_MARKET_FILES.zhvi, SAMPLE_MARKET_FILES.sold].includes(resolve(path));

/**
 * On the embedded local default only (no DATABASE_URL, not production), while no town has market
 * data or sold homes: imports the sample files through the real pipeline with their rows marked as
 * sample, so a new `npm start` shows town pages with data, labelled as sample. A real import
 * replaces a town's sample rows. Answers the runs, or null when there was nothing to do.
 */
export async function seedSampleMarketData(db: Db, env: Env): Promise<RunRecord[] | null> {
  if (env.DATABASE_URL || isProduction(env)) return null;
  const [state] = await db.query<{ empty: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM town_market_data) AND NOT EXISTS (SELECT 1 FROM town_sold_homes) AS empty`,
  );
  if (!state?.empty) return null;
  const { runs } = await refreshMarketData(db, {
    zhvi: csvFromFile(SAMPLE_MARKET_FILES.zhvi),
    sold: await soldFromFile(SAMPLE_MARKET_FILES.sold),
    sample: true,
    soldAsOf: SAMPLE_MARKET_FILES.asOf,
  });
  return runs;
}
