/**
 * What the leads screen's specs (dashboard-leads-*.spec.ts) leave and look at: leads for the
 * signed-in agent sent as the agent page's form sends them, the table of their leads, and the WCAG
 * levels its accessibility checks use.
 */
import type { Page } from '@playwright/test';
import * as z from 'zod';
import { expect, sameSiteHeaders } from './fixtures.ts';

/** The WCAG levels the screen's axe checks hold it to. */
export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A letters-only name part (names take no digits): Aa, Ab, … for 0, 1, … */
export const letters = (index: number) =>
  `${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`;

/** The signed-in agent's id, as the agent page's form sends it. */
export async function myId(page: Page): Promise<number> {
  const response = await page.request.get('/api/auth/me');
  return z.object({ agent: z.object({ id: z.number() }) }).parse(await response.json()).agent.id;
}

export interface LeadFields {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address?: string;
  source?: string;
  estimate_uuid?: string;
}

/** One lead for the agent `agentId`, sent as the agent page's form sends it. */
export async function postLead(page: Page, agentId: number, lead: LeadFields): Promise<void> {
  const response = await page.request.post('/api/leads', {
    headers: sameSiteHeaders(),
    data: { agent_id: agentId, consent_marketing: true, ...lead },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Leaves `count` leads for the signed-in agent through the agent page's form, oldest first. */
export async function leaveLeads(page: Page, count: number, tag: string): Promise<void> {
  const agentId = await myId(page);
  for (let index = 0; index < count; index += 1) {
    await postLead(page, agentId, {
      first_name: 'Morgan',
      last_name: `Visitor${letters(index)}`,
      email: `morgan.${tag}.${index}@example.com`,
      phone: '631-555-0100',
    });
  }
}

/** Dana Lopez, left last, the one home-page lead among the Morgans (with an address or estimate if given). */
export async function leaveDana(page: Page, tag: string, more: Pick<LeadFields, 'address' | 'estimate_uuid'> = {}) {
  await postLead(page, await myId(page), {
    first_name: 'Dana',
    last_name: 'Lopez',
    email: `dana.${tag}@example.com`,
    phone: '516-555-0123',
    source: 'showcase',
    ...more,
  });
}

export const table = (page: Page) => page.getByRole('table', { name: 'Your leads, newest first' });
/** The names in the table's rows, top to bottom. */
export const names = (page: Page) => table(page).locator('tbody th');
