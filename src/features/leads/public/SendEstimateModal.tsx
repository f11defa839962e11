import { useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { callApi } from '../../../ui/api-client.ts';
import { Field } from '../../../ui/Field.tsx';
import { HoneypotField } from '../../../ui/HoneypotField.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { waitText } from '../../../ui/wait-text.ts';
import { useLeadSubmission } from './use-lead-submission.ts';
import { Modal } from '../../../ui/Modal.tsx';
import { estimateSummary } from './lead-summary.ts';
import { ConsentField } from './ConsentField.tsx';
import { estimatePageLeadSchema } from './lead.ts';
import type { Estimate } from '../../net-sheet/public/estimate-request.ts';
import { UpdatesOptInField } from '../../seller-updates/public/UpdatesOptInField.tsx';
import { OPT_IN_STATUSES, type OptInStatus } from '../../seller-updates/public/opt-in.ts';

// The lead's answer also says how the agent's CRM sync went: the agent's business, not the visitor's.
const successSchema = z.object({ success: z.literal(true) });
/** The lead's answer: what became of the monthly updates' confirmation, for the page to say truthfully. */
const leadAcceptedSchema = z.object({ success: z.literal(true), updates: z.enum(OPT_IN_STATUSES) });

const SEND_FAILED = 'There was an error sending your estimate. Please try again.';
/** A cap stopped the e-mail (per estimate, per address or per connection, an hour each): when to try again. */
const sendLimited = (retryAfterSeconds: number | null) =>
  `We could not e-mail your estimate: it has been e-mailed as many times as we allow in an hour. Please try again ${waitText(retryAfterSeconds)}.`;

const emptyForm = { name: '', email: '', phone: '', consent: false, updates: false, place: '' };

/**
 * "Send this to my email" on the shared estimate page: a lead for the estimate's agent, then the
 * e-mail. The page says it was sent (`onSent`), next to the estimate, once this modal has closed.
 */
export function SendEstimateModal({
  estimate,
  agentName,
  homeTown,
  open,
  onClose,
  onSent,
}: {
  estimate: Estimate;
  /** The estimate's agent, named in the consent as the other forms name theirs; null until known. */
  agentName: string | null;
  /** The town the seller gave with the estimate's details, if any: the updates' place starts with it. */
  homeTown: string | null;
  open: boolean;
  onClose: () => void;
  /** With what became of the monthly updates' confirmation (issue 25). */
  onSent: (updates: OptInStatus) => void;
}) {
  const startForm = { ...emptyForm, place: homeTown ?? '' };
  const [form, setForm] = useState(startForm);
  // The estimate's sheet (and its town) may arrive after the modal: the place then starts with it.
  const [prefilledFrom, setPrefilledFrom] = useState(homeTown);
  if (homeTown !== prefilledFrom) {
    setPrefilledFrom(homeTown);
    if (homeTown && !form.place) setForm({ ...form, place: homeTown });
  }
  /** Why nothing was sent, in the server's terms where it said (a cap and its wait: issue 23, M3). */
  const [failed, setFailed] = useState<string | null>(null);
  const { errors, sending, setSending, submitLead, honeypot } = useLeadSubmission(leadAcceptedSchema);

  const close = () => {
    setFailed(null);
    onClose();
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setFailed(null);
    const lead = {
      agent_id: estimate.agent_id,
      name: form.name,
      email: form.email,
      phone: form.phone,
      source: 'calculator' as const,
      consent_marketing: form.consent,
      estimate_uuid: estimate.uuid,
      updates_opt_in: form.updates,
      updates_place: form.updates ? form.place : null,
      email_body: estimateSummary(estimate),
    };
    try {
      const accepted = await submitLead(estimatePageLeadSchema, lead);
      // A refusal the form cannot show under a field (a rate limit, the database away) in the server's words.
      if (accepted.kind === 'rejected') setFailed(accepted.error || SEND_FAILED);
      if (accepted.kind !== 'accepted') return;
      setSending(true);
      const sent = await callApi('/api/email/send-estimate', successSchema, {
        body: { estimate_uuid: estimate.uuid, recipient_email: form.email.trim(), recipient_name: form.name.trim() },
      });
      if (!sent.ok) {
        setFailed(sent.status === 429 ? sendLimited(sent.retryAfterSeconds) : SEND_FAILED);
        return;
      }
      setForm(startForm);
      onSent(accepted.answer.updates);
    } catch {
      setFailed(SEND_FAILED);
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
    <Modal open={open} title="Send this to my email" onClose={close}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <Field label="Full name" autoComplete="name" required {...text('name')} />
        <Field label="Email" type="email" autoComplete="email" required {...text('email')} />
        <Field label="Phone (optional)" type="tel" autoComplete="tel" {...text('phone')} />
        <ConsentField
          agentName={agentName}
          checked={form.consent}
          error={errors.consent_marketing}
          onChange={(consent) => setForm({ ...form, consent })}
        />
        <UpdatesOptInField
          checked={form.updates}
          onChange={(updates) => setForm({ ...form, updates })}
          place={form.place}
          placeError={errors.updates_place}
          onPlaceChange={(place) => setForm({ ...form, place })}
        />
        <HoneypotField {...honeypot} />
        <Notice tone="error" message={failed} />
        <button type="submit" className="button button-primary button-block" disabled={sending}>
          {sending ? 'Sending...' : 'Send My Estimate'}
        </button>
      </form>
    </Modal>
  );
}
