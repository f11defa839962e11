import { ApiError, getJson } from '../accounts/public/account-query.ts';
import { adminAgentListSchema, type AdminAgent, type AgentStatus } from './admin-agents.ts';

/** The agents list's query, and what the screen's parts (table, dialogs, form) say with it. */
export const AGENTS_KEY = ['admin-agents'];
export const fetchAgents = async () => (await getJson('/api/admin/agents', adminAgentListSchema)).agents;

/** The server's words for a refusal it explains (4xx), else the screen's own. */
export const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status < 500 ? error.message : fallback;

export type Outcome = { tone: 'success' | 'error'; message: string } | null;

export const nameOf = (agent: AdminAgent) => `${agent.first_name} ${agent.last_name}`;

/** A status the admin picked for an agent, waiting for the dialog's answer. */
export type StatusChange = { agent: AdminAgent; status: AgentStatus };
