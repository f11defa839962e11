/**
 * The matrix's parties: agent A, agent B and an admin, each an agent with the matrix's password, a
 * lead carrying their secret, an estimate with compared offers and a Follow Up Boss connection.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { profileSchema } from '../../../src/features/agents/profile.ts';
import { expectJson } from '../../support/api-suite.ts';
import type { AuthSuite, Client } from '../../support/auth-suite.ts';
import { createAgent } from '../../support/fixtures.ts';
import { estimateResponse } from '../../support/schemas.ts';
import type { Party } from './cells.ts';

/** The password of every party (agent A logs in with it). */
export const PASSWORD = 'matrix-password-0123';

/** Two offers on an estimate, as the offers comparison takes them. */
export const twoOffers = [
  { price: 700000, concessions: 0, closing_date: '2027-03-01', financing: 'cash' },
  { price: 720000, concessions: 5000, closing_date: '2027-04-01', financing: 'conventional' },
];

const profileAnswer = z.object({
  success: z.literal(true),
  profile: z.record(z.string(), z.union([z.string(), z.boolean(), z.number(), z.null()])),
});
const settingsAnswer = z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) });

/** The editable fields of a profile answer: what PUT /api/agents/profile takes. */
const PROFILE_FIELDS = Object.keys(profileSchema.shape);

/**
 * A party: an agent (an admin when `admin`) with a password, a lead carrying their secret, an
 * estimate with compared offers, and a Follow Up Boss connection (`connect`).
 */
export async function makeParty(
  suite: AuthSuite,
  client: (agentId: number) => Promise<Client>,
  connect: (client: Client) => Promise<void>,
  passwordHash: string,
  admin = false,
): Promise<Party> {
  const secret = `zq${randomBytes(6).toString('hex')}`;
  // A first name of their own (letters only, as the profile form takes), for the public page to show.
  const first_name = `Jamie${randomBytes(4)
    .toString('hex')
    .replace(/\d/g, (digit) => 'ghijklmnop'.charAt(Number(digit)))}`;
  const agent = await createAgent(suite.db, { first_name, is_admin: admin, password_hash: passwordHash });
  const estimate = (
    await expectJson(
      await suite.api.postJson('/api/estimates', {
        agent_slug: agent.slug,
        sale_price: 780200,
        mortgage_payoff: 450000,
      }),
      201,
      estimateResponse,
    )
  ).estimate;
  const offers = await suite.api.postJson('/api/offers', { estimate_uuid: estimate.uuid, offers: twoOffers });
  const offersUuid = z.object({ comparison: z.object({ uuid: z.string() }) }).parse(await offers.json())
    .comparison.uuid;
  const [lead] = await suite.db.query<{ id: number }>(
    `INSERT INTO leads (agent_id, first_name, last_name, email, phone, source, consent_marketing, estimate_uuid)
     VALUES ($1, 'Lead', $2, $2 || '@example.com', '6315550177', 'calculator', true, $3::uuid) RETURNING id`,
    [agent.id, secret, estimate.uuid],
  );
  // The seller asked for updates (not confirmed yet): /dashboard/updates lists them, by their e-mail.
  await suite.db.query(
    `INSERT INTO seller_updates (lead_id, agent_id, email) SELECT id, agent_id, email FROM leads WHERE id = $1`,
    [lead?.id ?? 0],
  );
  const self = await client(agent.id);
  await connect(self);
  await suite.db.query(`UPDATE fub_integrations SET account_name = $2 WHERE agent_id = $1`, [agent.id, secret]);
  const { profile } = await expectJson(await self.get('/api/agents/profile'), 200, profileAnswer);
  const { settings } = await expectJson(await self.get('/api/agents/me/settings'), 200, settingsAnswer);
  return {
    id: agent.id,
    slug: agent.slug,
    email: agent.email,
    first_name: agent.first_name,
    secret,
    leadId: lead?.id ?? 0,
    estimateUuid: estimate.uuid,
    offersUuid,
    // A form sends text: true and false for the toggles, nothing for an empty field.
    profile: Object.fromEntries(PROFILE_FIELDS.map((field) => [field, String(profile[field] ?? '')])),
    settings,
  };
}
