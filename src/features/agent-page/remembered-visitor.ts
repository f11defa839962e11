/**
 * A seller who unlocked an estimate on an agent's page is remembered in this browser, for that agent
 * (issue 23, newcomer audit M2: a seller trying three prices typed their details three times). Their
 * later estimates there unlock with the same details: the server records each newer estimate on the
 * same lead (one lead a visitor and agent for 10 minutes), and its consent was given for this agent.
 * "Not you?" forgets them. Stored only in this browser; a browser that refuses storage asks each time.
 */
import * as z from 'zod';
import type { Estimate } from '../net-sheet/public/estimate-request.ts';
import { estimateSummary } from '../leads/public/lead-summary.ts';

const visitorSchema = z.object({
  first_name: z.string().min(1).max(50),
  last_name: z.string().min(1).max(50),
  email: z.string().min(3).max(254),
  phone: z.string().min(10).max(30),
});
export type RememberedVisitor = z.output<typeof visitorSchema>;

const storageKey = (agentId: number) => `agent-page.visitor.v1.${agentId}`;

export function rememberVisitor(agentId: number, visitor: RememberedVisitor): void {
  try {
    window.localStorage.setItem(storageKey(agentId), JSON.stringify(visitor));
  } catch {
    // Not remembered: the next estimate asks again.
  }
}

/** The visitor remembered for this agent, or null (none, storage refused, or a stored value that no longer fits). */
export function rememberedVisitor(agentId: number): RememberedVisitor | null {
  try {
    const kept: unknown = JSON.parse(window.localStorage.getItem(storageKey(agentId)) ?? 'null');
    const parsed = visitorSchema.safeParse(kept);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function forgetVisitor(agentId: number): void {
  try {
    window.localStorage.removeItem(storageKey(agentId));
  } catch {
    // Nothing was kept.
  }
}

/** The agent page's lead for `estimate` (the unlock form's body, and a remembered visitor's). */
export const unlockLead = (agentId: number, estimate: Estimate, visitor: RememberedVisitor) => ({
  agent_id: agentId,
  first_name: visitor.first_name,
  last_name: visitor.last_name,
  email: visitor.email,
  phone: visitor.phone,
  source: 'calculator' as const,
  consent_marketing: true as const,
  estimate_uuid: estimate.uuid,
  email_body: estimateSummary(estimate),
});
