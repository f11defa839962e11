import { SYSTEM_DEFAULTS } from '../features/estimate/estimate.ts';
import { seedTowns } from '../features/towns/towns-seed.server.ts';
import type { Db } from './db.ts';
import type { FeaturedAgent } from './featured-agent.ts';

/** Demo showcase shown until an admin sets the real one. */
export const DEMO_SHOWCASE = {
  priceCents: 780_200_00,
  address: '24 Harbor View Lane, Huntington, NY 11743',
  beds: 3,
  baths: 2,
  sqft: 2543,
} as const;

/**
 * Idempotent: the featured agent's identity follows configuration on every run; their calculator
 * settings and the site settings are created once and then left to their owners. The towns follow
 * src/features/towns/towns.data.json (see seedTowns).
 */
export async function seed(db: Db, agent: FeaturedAgent): Promise<{ agentId: number; towns: number }> {
  return db.transaction(async (tx) => {
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
                                  showcase_property_beds, showcase_property_baths, showcase_property_sqft)
       VALUES (1, $1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
      [DEMO_SHOWCASE.priceCents, DEMO_SHOWCASE.address, DEMO_SHOWCASE.beds, DEMO_SHOWCASE.baths, DEMO_SHOWCASE.sqft],
    );
    const towns = await seedTowns(tx);
    return { agentId: row.id, towns };
  });
}
