/**
 * The admin's agents screen and its API (/api/admin/agents): the add-agent form's rules (the
 * sign-up form's, without a password: the new agent sets one from an e-mailed link), the status
 * change, and the list row, shared by the screen (which checks before sending) and the server.
 */
import * as z from 'zod/mini';
import { signupSchema } from '../auth/public/auth-schemas.ts';
import { recordIdParam } from '../forms/public/record-id.ts';

export const AGENT_STATUSES = ['active', 'inactive', 'pending'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const ADMIN_AGENT_MESSAGES = {
  added: 'Agent added successfully.',
  addFailed: 'Failed to add agent',
  loadFailed: 'Failed to load agents',
  deleteFailed: 'Failed to delete agent',
  deleted: 'Agent deleted.',
  notFound: 'Agent not found',
  deleteSelf: 'You cannot delete your own account.',
  deleteLastAdmin: 'You cannot delete the last admin.',
  deleteFeatured:
    'The featured agent’s name brands the public pages, so they cannot be deleted. Choose another featured agent first (the FEATURED_AGENT_* settings of the site).',
  statusFeatured:
    'The featured agent’s name brands the public pages, so they must stay active. Choose another featured agent first (the FEATURED_AGENT_* settings of the site).',
  statusSelf: 'You cannot change the status of your own account.',
  statusChanged: 'Status updated.',
  invitationSent: 'Invitation sent again.',
  invitationNotNeeded: 'This agent has already chosen a password; they can use “Forgot password” on the login page.',
  invitationFailed: 'Failed to send the invitation',
} as const;

/**
 * What a status change does, said before it is made (minor 25): the question and its consequence,
 * naming the agent. Leaving active ends their sessions (PATCH below); pending waits for their link.
 */
export function statusChangeQuestion(name: string, status: AgentStatus): { title: string; consequence: string } {
  switch (status) {
    case 'inactive':
      return {
        title: `Make ${name} inactive?`,
        consequence: 'Their calculator page stops showing and they are signed out.',
      };
    case 'pending':
      return {
        title: `Make ${name} pending?`,
        consequence:
          'Their calculator page stops showing, they are signed out and they cannot sign in until the account is made active again.',
      };
    case 'active':
      return {
        title: `Make ${name} active?`,
        consequence: 'Their calculator page shows again and they can sign in.',
      };
  }
}

/** POST /api/admin/agents: names, e-mail, slug, brokerage and phone (digits) by the sign-up rules. */
export const addAgentSchema = z.pick(signupSchema, {
  first_name: true,
  last_name: true,
  email: true,
  slug: true,
  brokerage: true,
  phone: true,
});

export type AddAgentInput = z.input<typeof addAgentSchema>;

/** PATCH /api/admin/agents/{id}. */
export const agentStatusSchema = z.object({
  status: z.enum(AGENT_STATUSES, { error: 'Status must be active, inactive or pending' }),
});

export const agentIdParams = z.object({ id: recordIdParam('Agent id') });

/** A row of GET /api/admin/agents. */
export const adminAgentSchema = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  slug: z.string(),
  brokerage: z.nullable(z.string()),
  status: z.enum(AGENT_STATUSES),
  is_admin: z.boolean(),
  created_at: z.string(),
  lead_count: z.number(),
  estimate_count: z.number(),
  /** The site's featured agent (their name brands the public pages): never deleted nor deactivated. */
  featured: z.boolean(),
  /** ISO time of their last sign-in, null when they never signed in (recorded since migration 0028). */
  last_sign_in_at: z.nullable(z.string()),
  /** True while they have never chosen a password: the invitation can be sent again. */
  invitation_open: z.boolean(),
});

export type AdminAgent = z.infer<typeof adminAgentSchema>;

export const adminAgentListSchema = z.object({ success: z.literal(true), agents: z.array(adminAgentSchema) });
export const adminAgentAddedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  agent: adminAgentSchema,
});
export const adminAgentChangedSchema = z.object({ success: z.literal(true), message: z.string() });

/** The admin's CSV of one agent's leads: the admin's export with the agent filter. */
export const agentLeadsCsv = (agentId: number) => ({
  path: '/api/admin/leads/export.csv',
  filters: { agent: agentId },
});
