/**
 * The admin's agents screen and its API (/api/admin/agents): the add-agent form's rules (the
 * sign-up form's, without a password: the new agent sets one from an e-mailed link), the status
 * change, and the list row, shared by the screen (which checks before sending) and the server.
 */
import * as z from 'zod';
import { signupSchema } from '../auth/auth-schemas.ts';
import { recordIdParam } from '../forms/record-id.ts';

export const AGENT_STATUSES = ['active', 'inactive', 'pending'] as const;

export const ADMIN_AGENT_MESSAGES = {
  added: 'Agent added successfully.',
  addFailed: 'Failed to add agent',
  loadFailed: 'Failed to load agents',
  deleteFailed: 'Failed to delete agent',
  deleted: 'Agent deleted.',
  notFound: 'Agent not found',
  deleteSelf: 'You cannot delete your own account.',
  deleteLastAdmin: 'You cannot delete the last admin.',
  deleteFeatured: 'The featured agent of this site cannot be deleted.',
  statusSelf: 'You cannot change the status of your own account.',
  statusChanged: 'Status updated.',
} as const;

/** POST /api/admin/agents: names, e-mail, slug, brokerage and phone (digits) by the sign-up rules. */
export const addAgentSchema = signupSchema.pick({
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
  brokerage: z.string().nullable(),
  status: z.enum(AGENT_STATUSES),
  is_admin: z.boolean(),
  created_at: z.string(),
  lead_count: z.number(),
  estimate_count: z.number(),
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
