/**
 * Adding an agent, in one statement, the same way whoever adds them: an agent signing up
 * (signup-routes.server.ts) or an admin inviting one (src/features/admin/admin-agents.server.ts).
 * The pending agent, their settings row with the system's defaults, the e-mailed link's token and
 * that e-mail queued, or nothing when the e-mail or the slug is taken.
 */
import { issueTokenCtes, TOKEN_HOURS } from '../../auth/public/tokens.server.ts';
import type { EmailContent } from '../../email/public/templates.ts';
import { SYSTEM_DEFAULTS } from '../../net-sheet/public/estimate.ts';

/** Who is added, as the sign-up form or the admin's form gave them (`email` in lower case). */
export interface NewAgent {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  slug: string;
  brokerage: string | null;
  /** Null for an invited agent, who sets a password from the invitation's link. */
  passwordHash: string | null;
}

/** The e-mailed link: a verification for a sign-up, an invitation for an agent an admin adds. */
export interface NewAgentLink {
  purpose: 'verify_email' | 'invitation';
  /** The token's hash (newToken()); the token itself is in the message. */
  tokenHash: string;
  message: EmailContent;
}

/**
 * The CTEs `taken` (email_taken, slug_taken), `agent` (the new row, all its columns), `settings`,
 * the token's and `queued` (the e-mail's delivery id), reading newAgentParams' values from `$first`.
 * `gate` is a CTE the insert also needs a row of and its condition (the admin's `me` and
 * `me.is_admin`): without one, nothing is added.
 */
export function newAgentCtes(
  first: number,
  purpose: NewAgentLink['purpose'],
  gate?: { cte: string; when: string },
): string {
  const p = (index: number) => `$${first + index}`;
  return `taken AS (
       SELECT coalesce(bool_or(lower(email) = ${p(2)}), false) AS email_taken,
              coalesce(bool_or(slug = ${p(5)}), false) AS slug_taken
         FROM agents WHERE lower(email) = ${p(2)} OR slug = ${p(5)}
     ),
     agent AS (
       INSERT INTO agents (first_name, last_name, email, phone, password_hash, slug, brokerage, status, is_admin)
       SELECT ${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, 'pending', false FROM taken${gate ? `, ${gate.cte}` : ''}
        WHERE ${gate ? `${gate.when} AND ` : ''}NOT (taken.email_taken OR taken.slug_taken)
       RETURNING *
     ),
     settings AS (
       INSERT INTO agent_settings (agent_id, default_attorney_fee_cents, default_recording_fee_cents,
                                   transfer_tax_rate_per_1000, default_commission_percent)
       SELECT id, ${p(12)}, ${p(13)}, ${p(14)}, ${p(15)} FROM agent
     )${issueTokenCtes('agent', p(7), `'${purpose}'`, p(8))},
     queued AS (
       INSERT INTO email_deliveries (kind, to_email, to_name, subject, html, text)
       SELECT '${purpose}', ${p(2)}, ${p(0)} || ' ' || ${p(1)}, ${p(9)}, ${p(10)}, ${p(11)} FROM agent
       RETURNING id
     )`;
}

/** The values newAgentCtes reads, in its order. */
export function newAgentParams(agent: NewAgent, link: NewAgentLink): unknown[] {
  return [
    agent.first_name,
    agent.last_name,
    agent.email,
    agent.phone,
    agent.passwordHash,
    agent.slug,
    agent.brokerage,
    link.tokenHash,
    TOKEN_HOURS[link.purpose],
    link.message.subject,
    link.message.html,
    link.message.text,
    SYSTEM_DEFAULTS.attorneyFeeCents,
    SYSTEM_DEFAULTS.recordingFeeCents,
    SYSTEM_DEFAULTS.transferTaxRatePer1000,
    SYSTEM_DEFAULTS.commissionPercent,
  ];
}
