/**
 * What the admin's agents tests (tests/integration/admin-agents-*.test.ts) share: the strict
 * answers of /api/admin/agents, the body of a new agent, and a suite with a signed-in agent or
 * admin, the list, the featured agent and an agent's status to read.
 */
import * as z from 'zod';
import { expectJson } from './api-suite.ts';
import { clientAs, useAuthSuite, type Client } from './auth-suite.ts';
import type { Backend } from './backends.ts';
import { createAgent } from './fixtures.ts';

export const agentRow = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  slug: z.string(),
  brokerage: z.string().nullable(),
  status: z.enum(['active', 'inactive', 'pending']),
  is_admin: z.boolean(),
  created_at: z.string(),
  lead_count: z.number(),
  estimate_count: z.number(),
  featured: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  invitation_open: z.boolean(),
});
export const agentList = z.strictObject({ success: z.literal(true), agents: z.array(agentRow) });
export const added = z.strictObject({ success: z.literal(true), message: z.string(), agent: agentRow });
export const done = z.strictObject({ success: z.literal(true), message: z.string() });

/** The FEATURED_AGENT_* defaults the test app is built with (src/platform/env.ts). */
export const FEATURED = { slug: 'alexmorgan', email: 'alex.morgan@example.com' };

let added_count = 0;
export const newAgentBody = (overrides: Record<string, unknown> = {}) => {
  added_count += 1;
  const id = `${added_count}${Math.random().toString(36).slice(2, 8)}`;
  return {
    first_name: 'Robin',
    last_name: 'Hale',
    email: `robin.hale.${id}@example.com`,
    slug: `robinhale${id}`,
    brokerage: 'Harbor Point Realty (demo)',
    phone: '5165550142',
    ...overrides,
  };
};

/** The suite of the admin's agents tests on `backend` (call inside a describe block). */
export function useAdminAgentsSuite(backend: Backend) {
  const suite = useAuthSuite(backend, 'adminagents');

  async function signedIn(admin: boolean): Promise<{ id: number; client: Client }> {
    const agent = await createAgent(suite.db, { is_admin: admin });
    return { id: agent.id, client: await clientAs(suite, agent.id) };
  }

  const list = async (client: Client) => expectJson(await client.get('/api/admin/agents'), 200, agentList);

  /** The featured agent's id: the seeded one, or one made with the FEATURED_AGENT_* defaults. */
  async function featuredAgentId(): Promise<number> {
    const [existing] = await suite.db.query<{ id: number }>('SELECT id FROM agents WHERE slug = $1', [FEATURED.slug]);
    const id =
      existing?.id ??
      (
        await suite.db.query<{ id: number }>(
          `INSERT INTO agents (first_name, last_name, email, slug, status) VALUES ('Alex', 'Morgan', $1, $2, 'active')
           ON CONFLICT DO NOTHING RETURNING id`,
          [FEATURED.email, FEATURED.slug],
        )
      )[0]?.id;
    if (id === undefined) throw new Error('no featured agent');
    return id;
  }
  const statusOf = async (id: number) =>
    (await suite.db.query<{ status: string }>('SELECT status FROM agents WHERE id = $1', [id]))[0]?.status;

  return { suite, signedIn, list, featuredAgentId, statusOf };
}
