import { useState, type SubmitEvent } from 'react';
import { z } from 'zod';
import { callApi } from '../../ui/api-client.ts';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { Field } from '../../ui/Field.tsx';
import { useLeadSubmission } from '../leads/use-lead-submission.ts';
import { Modal } from '../../ui/Modal.tsx';
import { estimateSummary } from '../agent-page/lead-summary.ts';
import { estimatePageLeadSchema } from '../leads/lead.ts';
import type { Estimate } from './estimate-request.ts';

const leadAcceptedSchema = z.object({
  success: z.literal(true),
  fub_sync_status: z.enum(['synced', 'no_api_key', 'no_integration', 'failed']),
});
const sentSchema = z.object({ success: z.literal(true) });

export const SEND_FAILED = 'There was an error sending your estimate. Please try again.';
export const SENT = 'Your estimate has been sent to your email!';

/** What the visitor is told about the agent's CRM, from the status the server returned. */
export function crmNote(status: z.output<typeof leadAcceptedSchema>['fub_sync_status']): string {
  switch (status) {
    case 'synced':
      return "It was also synced to the agent's CRM.";
    case 'no_api_key':
    case 'no_integration':
      return "Note: Not synced to CRM - agent hasn't configured CRM integration";
    case 'failed':
      return 'Note: Not synced to CRM - sync failed.';
  }
}

const emptyForm = { name: '', email: '', phone: '', consent: false };

/** "Send this to my email" on the shared estimate page: a lead for the estimate's agent, then the e-mail. */
export function SendEstimateModal({
  estimate,
  open,
  onClose,
}: {
  estimate: Estimate;
  open: boolean;
  onClose: () => void;
}) {
  const [form, setForm] = useState(emptyForm);
  const { errors, sending, setSending, submitLead } = useLeadSubmission(leadAcceptedSchema);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const lead = {
      agent_id: estimate.agent_id,
      name: form.name,
      email: form.email,
      phone: form.phone,
      source: 'calculator' as const,
      consent_marketing: form.consent,
      estimate_uuid: estimate.uuid,
      email_body: estimateSummary(estimate),
    };
    try {
      const accepted = await submitLead(estimatePageLeadSchema, lead);
      if (accepted.kind === 'rejected') window.alert(SEND_FAILED);
      if (accepted.kind !== 'accepted') return;
      setSending(true);
      const sent = await callApi('/api/email/send-estimate', sentSchema, {
        body: { estimate_uuid: estimate.uuid, recipient_email: form.email.trim(), recipient_name: form.name.trim() },
      });
      if (!sent.ok) {
        window.alert(SEND_FAILED);
        return;
      }
      window.alert(`${SENT}\n\n${crmNote(accepted.answer.fub_sync_status)}`);
      setForm(emptyForm);
      onClose();
    } catch {
      window.alert(SEND_FAILED);
    } finally {
      setSending(false);
    }
  };

  const text = (key: 'name' | 'email' | 'phone') => ({
    name: key,
    value: form[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  return (
    <Modal open={open} title="Send this to my email" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <Field label="Full name" autoComplete="name" required {...text('name')} />
        <Field label="Email" type="email" autoComplete="email" required {...text('email')} />
        <Field label="Phone (optional)" type="tel" autoComplete="tel" {...text('phone')} />
        <CheckboxField
          name="consent"
          checked={form.consent}
          error={errors.consent_marketing}
          onChange={(consent) => setForm({ ...form, consent })}
        >
          I agree to be contacted about selling my home. Consent is not a condition of any service.
        </CheckboxField>
        <button type="submit" className="button button-primary button-block" disabled={sending}>
          {sending ? 'Sending...' : 'Send My Estimate'}
        </button>
      </form>
    </Modal>
  );
}
