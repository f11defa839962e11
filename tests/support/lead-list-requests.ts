/**
 * The requests the lead list suites make as a signed-in agent: a new agent and their client, the
 * list read and checked, Clear All, and the CSV export read and parsed.
 */
import { expect } from 'vitest';
import * as z from 'zod';
import { expectJson } from './api-suite.ts';
import { clientAs, type AuthSuite, type Client } from './auth-suite.ts';
import { createAgent } from './fixtures.ts';
import { csvText, listedLead, listedPage, parseCsv } from './lead-list-suite.ts';

const leadList = listedPage(listedLead);
/** What DELETE /api/leads answers. */
export const cleared = z.strictObject({ success: z.literal(true), deleted: z.number() });

/** The lead list's requests against `suite`'s API. */
export function leadListRequests(suite: AuthSuite) {
  async function signedIn(admin = false): Promise<{ id: number; slug: string; client: Client }> {
    const agent = await createAgent(suite.db, { is_admin: admin });
    return { id: agent.id, slug: agent.slug, client: await clientAs(suite, agent.id) };
  }

  const list = async (client: Client, query = '') => expectJson(await client.get(`/api/leads${query}`), 200, leadList);
  const clear = (client: Client) =>
    client.request('/api/leads', { method: 'DELETE', headers: { origin: suite.api.origin } });

  async function csv(client: Client, query = ''): Promise<{ response: Response; records: string[][] }> {
    const response = await client.get(`/api/leads/export.csv${query}`);
    const text = await csvText(response);
    expect(response.status, text).toBe(200);
    expect(text.startsWith('\uFEFF'), 'a UTF-8 byte order mark for spreadsheets').toBe(true);
    return { response, records: parseCsv(text.slice(1)) };
  }

  return { signedIn, list, clear, csv };
}
