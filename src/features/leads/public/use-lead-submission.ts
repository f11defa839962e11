import { useState } from 'react';
import * as z from 'zod/mini';
import { callApi } from '../../../ui/api-client.ts';
import { fieldErrorsOf } from '../../../ui/field-errors.ts';
import { arrivalUtm } from '../../lead-origin/public/arrival.ts';
import { embedLeadFields } from '../../embed/public/host-page.ts';

export type LeadOutcome<Answer> =
  { kind: 'invalid' } | { kind: 'rejected'; error: string } | { kind: 'accepted'; answer: Answer };

/** What a lead form says when its request got no answer (the network failed). */
export const LEAD_FAILED = 'There was an error submitting your information. Please try again.';

/**
 * The lead forms' common path: check the lead with the form's own schema (errors shown per field,
 * nothing sent), then POST /api/leads and show the server's field errors if it refuses; a refusal
 * about no field (the database unreachable, a rate limit, the agent gone) is the form's `failure`,
 * so the visitor reads why and that nothing was sent. A network failure rejects, for the form to
 * say so its own way (LEAD_FAILED, through setFailure). Every lead also carries the page it was
 * sent from (town, county or agent page, for the agent) and the form's honeypot (`honeypot`, for
 * the form's HoneypotField) and the campaign the visitor arrived from (arrival.ts), and in the
 * embedded calculator its source and host page (host-page.ts), so no form can forget any.
 */
export function useLeadSubmission<Answer extends z.core.$ZodType>(answerSchema: Answer) {
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [sending, setSending] = useState(false);
  const [companySite, setCompanySite] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  const submitLead = async (schema: z.core.$ZodType, lead: object): Promise<LeadOutcome<z.output<Answer>>> => {
    const parsed = z.safeParse(schema, lead);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return { kind: 'invalid' };
    }
    setErrors({});
    setFailure(null);
    setSending(true);
    try {
      const result = await callApi('/api/leads', answerSchema, {
        body: {
          ...lead,
          page: window.location.pathname,
          utm: arrivalUtm(),
          company_site: companySite,
          // In the embedded calculator's frame: the source `embed` and the page it is on.
          ...embedLeadFields(window.location),
        },
      });
      if (result.ok) return { kind: 'accepted', answer: result.data };
      setErrors(result.fields);
      if (Object.keys(result.fields).length === 0) setFailure(result.error);
      return { kind: 'rejected', error: result.error };
    } finally {
      setSending(false);
    }
  };

  const honeypot = { value: companySite, onChange: setCompanySite };
  return { errors, setErrors, failure, setFailure, sending, setSending, submitLead, honeypot };
}
