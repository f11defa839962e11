/**
 * The three forms that post a lead (contact, agent page, estimate page) for the POST /api/leads
 * suites (tests/integration/leads-*.test.ts), each with an e-mail of its own, and a lead sent and
 * checked as stored or as refused with nothing written.
 */
import { expect } from 'vitest';
import { anyNumber, anyString, expectError, expectJson, type ApiSuite } from './api-suite.ts';
import { createEstimate } from './estimates.ts';
import { countRows, leadById } from './fixtures.ts';
import { leadResponse } from './schemas.ts';

export const SOURCES = 'showcase, calculator, nassau_county_page, suffolk_county_page, embed';
export const CONSENT = 'Please agree to be contacted about your home sale';
export const ONLY_NAME_CHARACTERS = 'can only contain letters, spaces, apostrophes, hyphens and periods';

/** The lead forms and their checks against `suite`'s API. */
export function leadForms(suite: ApiSuite) {
  const send = (body: unknown) => suite.api.postJson('/api/leads', body);

  /** Posts a lead that must be accepted; answers the stored row. */
  async function sendOk(body: unknown) {
    const response = await send(body);
    const result = await expectJson(response, 201, leadResponse);
    expect(result).toMatchObject({
      success: true,
      lead: { id: anyNumber(), created_at: anyString() },
      fub_sync_status: 'no_integration',
    });
    // Only an agent-page unlock with an estimate asks for the visitor's estimate e-mail.
    const asked = typeof body === 'object' && body !== null && 'first_name' in body && 'estimate_uuid' in body;
    expect(result.estimate_email.status).toBe(asked && body.estimate_uuid ? 'queued' : 'none');
    expect(result.lead.created_at).toBe(new Date(Date.parse(result.lead.created_at)).toISOString());
    const row = await leadById(suite.db, result.lead.id);
    if (!row) throw new Error(`lead ${result.lead.id} is not in the leads table`);
    return row;
  }

  /** Posts a lead that must be refused with 400, checks the message and that nothing was written. */
  async function sendRejected(body: unknown, field: string, message: string) {
    const before = await countRows(suite.db, 'leads');
    const result = await expectError(await send(body), 400);
    expect(result.fields[field], JSON.stringify(result.fields)).toBe(message);
    expect(Object.values(result.fields)).toContain(result.error);
    expect(await countRows(suite.db, 'leads')).toBe(before);
    return result;
  }

  const newEstimate = (agentSlug?: string) => createEstimate(suite.api, agentSlug);

  // A repeat of a lead within minutes is the same lead: each form gets an e-mail of its own.
  let forms = 0;
  const uniqueEmail = (local: string) => {
    forms += 1;
    return `${local}+${forms}@example.com`;
  };

  const contactForm = (change: Record<string, unknown> = {}) => ({
    agent_slug: 'alexmorgan',
    firstName: 'Dana',
    lastName: 'Lopez',
    phone: '(516) 555-0123',
    email: uniqueEmail('dana.lopez'),
    address: '12 Elm Street, Garden City, NY 11530',
    source: 'nassau_county_page',
    consent_marketing: true,
    ...change,
  });

  const agentPageForm = (agentId: number, change: Record<string, unknown> = {}) => ({
    agent_id: agentId,
    first_name: 'Chris',
    last_name: 'Nguyen',
    email: uniqueEmail('chris.nguyen'),
    phone: '631-555-0199',
    address: '7 Bay Road, Huntington, NY 11743',
    source: 'calculator',
    consent_marketing: true,
    ...change,
  });

  const estimatePageForm = (estimateUuid: string, change: Record<string, unknown> = {}) => ({
    name: 'Robin Q Baker',
    email: uniqueEmail('robin.baker'),
    phone: '+1 516 555 0177',
    message: 'Please call me after 5pm.',
    estimate_uuid: estimateUuid,
    email_body: 'Your estimated net proceeds: $279,341.00',
    consent_marketing: true,
    ...change,
  });

  return { send, sendOk, sendRejected, newEstimate, uniqueEmail, contactForm, agentPageForm, estimatePageForm };
}
