import { SYSTEM_DEFAULTS } from '../net-sheet/public/estimate.ts';
import type { Db } from '../../platform/db.ts';
import { CACHE_TAGS, cacheAtEdge, EDITED_TTL } from '../../platform/edge-cache.ts';
import { HttpError } from '../../platform/http.ts';
import { apiGroup, ok } from '../../platform/operation.ts';
import { centsToDollars } from '../../ui/money.ts';
import * as z from 'zod';
import {
  agentSlugSchema,
  isProfileComplete,
  publicAgentSchema,
  type PublicAgentResponse,
} from '../accounts/public/public-agent.ts';

type PublicAgentRow = PublicAgentResponse['agent'] & {
  default_attorney_fee_cents: number | null;
  default_recording_fee_cents: number | null;
  transfer_tax_rate_per_1000: number | null;
  default_commission_percent: number | null;
};

export const agentParams = z.object({ slug: agentSlugSchema });

/** The agent's page is switched off (an admin made them inactive): said apart from a wrong address. */
export const CALCULATOR_NOT_AVAILABLE = 'This calculator is not available';

/** One round trip: the agent of `slug` in any status, with their settings. */
async function agentBySlug(db: Db, slug: string): Promise<(PublicAgentRow & { status: string }) | undefined> {
  const [row] = await db.query<PublicAgentRow & { status: string }>(
    `SELECT a.id, a.slug, a.first_name, a.last_name, a.email, a.phone, a.brokerage, a.professional_title,
            a.license_number, a.website, a.brokerage_street, a.brokerage_city, a.brokerage_state,
            a.brokerage_zip, a.show_profile_photo, a.show_logo, a.status,
            -- A photo or logo the agent hid is not given away either (they are /api/images/ URLs).
            CASE WHEN a.show_profile_photo THEN a.profile_photo END AS profile_photo,
            CASE WHEN a.show_logo THEN a.logo END AS logo,
            s.default_attorney_fee_cents, s.default_recording_fee_cents, s.transfer_tax_rate_per_1000,
            s.default_commission_percent
       FROM agents a LEFT JOIN agent_settings s ON s.agent_id = a.id
      WHERE a.slug = $1`,
    [slug],
  );
  return row;
}

/**
 * One round trip: the agent and their settings. Only active agents have a public page; the photo and
 * logo are given only while their toggles are on.
 */
export async function findPublicAgent(db: Db, slug: string): Promise<PublicAgentRow | undefined> {
  const found = await agentBySlug(db, slug);
  if (!found) return undefined;
  const { status, ...agent } = found;
  return status === 'active' ? agent : undefined;
}

/** The answer of GET /api/agents/public/{slug} for a found agent (also what their page is rendered with). */
export function publicAgentAnswer({
  default_attorney_fee_cents,
  default_recording_fee_cents,
  transfer_tax_rate_per_1000,
  default_commission_percent,
  ...agent
}: PublicAgentRow): PublicAgentResponse {
  return {
    success: true,
    agent,
    settings: {
      default_attorney_fee: centsToDollars(default_attorney_fee_cents ?? SYSTEM_DEFAULTS.attorneyFeeCents),
      default_recording_fee: centsToDollars(default_recording_fee_cents ?? SYSTEM_DEFAULTS.recordingFeeCents),
      transfer_tax_rate_per_1000: transfer_tax_rate_per_1000 ?? SYSTEM_DEFAULTS.transferTaxRatePer1000,
      default_commission_percent: default_commission_percent ?? SYSTEM_DEFAULTS.commissionPercent,
    },
    profile_complete: isProfileComplete(agent),
  };
}

/** An agent's public page, as the public site reads it. */
export const agentsApi = apiGroup(
  (deps: { db: Db }) => deps,
  (op) => [
    op({
      method: 'GET',
      path: '/api/agents/public/:slug',
      access: 'public',
      summary: "An active agent's public profile and calculator defaults",
      tag: 'Agents',
      params: agentParams,
      success: ok('The agent', publicAgentSchema),
      errors: [404, 410],
      handler: async (c, { db }, input) => {
        const { slug } = input.params();
        const found = await agentBySlug(db, slug);
        if (!found) throw new HttpError(404, 'Agent not found');
        const { status, ...agent } = found;
        // 410 for an inactive agent, so their page says the calculator is off rather than "not found".
        if (status === 'inactive') throw new HttpError(410, CALCULATOR_NOT_AVAILABLE);
        if (status !== 'active') throw new HttpError(404, 'Agent not found');
        cacheAtEdge(c, [CACHE_TAGS.agent(agent.id)], EDITED_TTL);
        return c.json(publicAgentAnswer(agent));
      },
    }),
  ],
);
