/**
 * The suite of the lead and send-estimate limits (tests/integration/lead-limits-*.test.ts): an
 * e-mail suite whose client address comes from a test header, and the requests and reads its tests
 * make (leads by each form, estimates, send-estimate, the e-mails and leads of an address).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { expectJson } from './api-suite.ts';
import { IP_HEADER } from './auth-suite.ts';
import type { Backend } from './backends.ts';
import { useEmailSuite } from './email-suite.ts';
import { createAgent } from './fixtures.ts';
import { estimateResponse, leadResponse } from './schemas.ts';

export const SEND = '/api/email/send-estimate';
export const NO_LEAD =
  'We can only send this estimate to the email address just entered in the form for it. Please fill in the form again.';

export const sendEstimateResponse = z.strictObject({
  success: z.literal(true),
  message: z.literal('Your estimate has been sent to your email!'),
  delivery_id: z.number().int().positive(),
});

/** An e-mail suite on `backend` where a request's client address is the test header's. */
export function useLeadLimitsSuite(backend: Backend, label: string) {
  const suite = useEmailSuite(backend, label, {
    clientIp: (request) => request.headers.get(IP_HEADER) ?? undefined,
  });

  /** POSTs `body` as JSON, from `ip` when given (else from this machine, as a local client). */
  const post = (path: string, body: unknown, ip?: string) =>
    suite.api.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(ip ? { [IP_HEADER]: ip } : {}) },
      body: JSON.stringify(body),
    });

  /**
   * An agent of the test's own: the featured agent receives leads from every test of the file, so
   * a test that reads notices must not share its cap of notices an hour.
   */
  const newAgent = () => createAgent(suite.db);

  /** An address no other test uses. */
  const newVisitor = () => `visitor.${randomBytes(5).toString('hex')}@example.com`;

  const newEstimate = async (agentSlug = 'alexmorgan') => {
    const response = await post('/api/estimates', {
      agent_slug: agentSlug,
      sale_price: 780200,
      mortgage_payoff: 450000,
    });
    return (await expectJson(response, 201, estimateResponse)).estimate;
  };

  /** Posts a lead that must be accepted; answers its id. */
  const sendLead = async (body: Record<string, unknown>, ip?: string) =>
    (await expectJson(await post('/api/leads', body, ip), 201, leadResponse)).lead.id;
  /** The whole answer of a lead that must be accepted (what became of its estimate e-mail with it). */
  const leadAnswerOf = async (body: Record<string, unknown>) =>
    expectJson(await post('/api/leads', body), 201, leadResponse);

  /** The estimate page's form: the visitor leaves their details for the estimate. */
  const estimateLead = (estimateUuid: string, email: string, change: Record<string, unknown> = {}) => ({
    name: 'Dana Lopez',
    email,
    estimate_uuid: estimateUuid,
    consent_marketing: true,
    ...change,
  });

  const contactForm = (email: string, change: Record<string, unknown> = {}) => ({
    agent_slug: 'alexmorgan',
    firstName: 'Dana',
    lastName: 'Lopez',
    phone: '(516) 555-0123',
    email,
    consent_marketing: true,
    ...change,
  });

  const agentPageForm = (agentId: number, email: string, change: Record<string, unknown> = {}) => ({
    agent_id: agentId,
    first_name: 'Chris',
    last_name: 'Nguyen',
    email,
    phone: '631-555-0199',
    consent_marketing: true,
    ...change,
  });

  const sendEstimate = (estimateUuid: string, email: string, ip?: string, name = 'Dana Lopez') =>
    post(SEND, { estimate_uuid: estimateUuid, recipient_email: email, recipient_name: name }, ip);

  /** The kinds of the e-mails queued to `email`, oldest first. */
  const mailTo = async (email: string) =>
    (
      await suite.db.query<{ kind: string }>(
        'SELECT kind FROM email_deliveries WHERE lower(to_email) = lower($1) ORDER BY id',
        [email],
      )
    ).map((row) => row.kind);

  const leadsOf = async (email: string) =>
    suite.db.query<{ id: number; estimate_uuid: string | null }>(
      'SELECT id, estimate_uuid::text AS estimate_uuid FROM leads WHERE lower(email) = lower($1) ORDER BY id',
      [email],
    );

  /** The agent's new-lead notices about the lead, as text. */
  const noticesOf = async (leadId: number) =>
    (
      await suite.db.query<{ text: string }>(
        "SELECT text FROM email_deliveries WHERE lead_id = $1 AND kind = 'new_lead' ORDER BY id",
        [leadId],
      )
    ).map((row) => row.text);
  return {
    suite,
    post,
    newAgent,
    newVisitor,
    newEstimate,
    sendLead,
    leadAnswerOf,
    estimateLead,
    contactForm,
    agentPageForm,
    sendEstimate,
    mailTo,
    leadsOf,
    noticesOf,
  };
}
