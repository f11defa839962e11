import { useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { callApi } from '../../ui/api-client.ts';
import { Field } from '../../ui/Field.tsx';
import { HoneypotField } from '../../ui/HoneypotField.tsx';
import { LEAD_FAILED, useLeadSubmission } from '../leads/public/use-lead-submission.ts';
import { Modal } from '../../ui/Modal.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { formatPhone } from '../../ui/phone.ts';
import type { Estimate } from '../net-sheet/public/estimate-request.ts';
import { ConsentField } from '../leads/public/ConsentField.tsx';
import { agentPageLeadSchema, leadAnswerSchema, type LeadAnswer } from '../leads/public/lead.ts';
import { phoneDigits } from '../leads/public/lead-summary.ts';
import { rememberedVisitor, rememberVisitor, unlockLead } from './remembered-visitor.ts';
import { UpdatesOptInField } from '../seller-updates/public/UpdatesOptInField.tsx';

interface UnlockModalProps {
  open: boolean;
  agentId: number;
  agentFirstName: string;
  senderName: string;
  estimate: Estimate;
  onClose: () => void;
  /**
   * Called once the lead is stored: the address, what became of its estimate e-mail (the server's
   * word, issue 23 M3) and of the monthly updates' confirmation (issue 25).
   */
  onUnlocked: (email: string, emailed: LeadAnswer['estimate_email'], updates: LeadAnswer['updates']) => void;
}

const emptyForm = { firstName: '', lastName: '', phone: '', email: '', consent: false, updates: false, place: '' };
const templatesSchema = z.object({ success: z.literal(true), templates: z.record(z.string(), z.string()) });

/** The lead form that unlocks the agent page's estimate. */
export function UnlockModal({
  open,
  agentId,
  agentFirstName,
  senderName,
  estimate,
  onClose,
  onUnlocked,
}: UnlockModalProps) {
  // A remembered visitor whose automatic unlock failed finds the form filled in but the consent.
  const [form, setForm] = useState(() => {
    const known = rememberedVisitor(agentId);
    return known
      ? { ...emptyForm, firstName: known.first_name, lastName: known.last_name, email: known.email, phone: known.phone }
      : emptyForm;
  });
  const { errors, failure, setFailure, sending, submitLead, honeypot } = useLeadSubmission(leadAnswerSchema);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const visitor = {
      first_name: form.firstName,
      last_name: form.lastName,
      email: form.email,
      phone: phoneDigits(form.phone),
    };
    // The consent is the visitor's tick, checked by the form's schema like every field.
    const lead = {
      ...unlockLead(agentId, estimate, visitor),
      consent_marketing: form.consent,
      updates_opt_in: form.updates,
      // The quick calculator tells no town: the seller says where the home is (read only with the box).
      updates_place: form.updates ? form.place : null,
    };
    try {
      const outcome = await submitLead(agentPageLeadSchema, lead);
      if (outcome.kind !== 'accepted') return;
      // Follow-up messages for the agent; the visitor's flow does not depend on them.
      callApi('/api/templates', templatesSchema, {
        body: { uuid: estimate.uuid, first_name: form.firstName.trim(), sender_name: senderName },
      }).catch((error: unknown) => console.warn('Could not prepare follow-up templates', error));
      // Their next estimates on this agent's page unlock with the same details (audit M2).
      rememberVisitor(agentId, {
        first_name: form.firstName.trim(),
        last_name: form.lastName.trim(),
        email: form.email.trim(),
        phone: phoneDigits(form.phone),
      });
      onUnlocked(form.email.trim(), outcome.answer.estimate_email, outcome.answer.updates);
      setForm(emptyForm);
    } catch {
      setFailure(LEAD_FAILED);
    }
  };

  const text = (key: 'firstName' | 'lastName' | 'email', errorKey: string) => ({
    name: key,
    value: form[key],
    error: errors[errorKey],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  const digits = phoneDigits(form.phone);
  return (
    <Modal open={open} title="Unlock Your Estimate" onClose={onClose}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="note">Where should we send your estimate? {agentFirstName} will follow up personally.</p>
        <div className="form-row">
          <Field label="First name" autoComplete="given-name" required {...text('firstName', 'first_name')} />
          <Field label="Last name" autoComplete="family-name" required {...text('lastName', 'last_name')} />
        </div>
        <Field
          label="Phone"
          type="tel"
          autoComplete="tel"
          required
          name="phone"
          value={digits.length >= 10 ? formatPhone(digits) : digits}
          error={errors.phone}
          onChange={(event) => setForm({ ...form, phone: event.target.value })}
        />
        <Field label="Email" type="email" autoComplete="email" required {...text('email', 'email')} />
        <ConsentField
          agentName={senderName}
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
        <Notice tone="error" message={failure} />
        <button type="submit" className="button button-primary button-block" disabled={sending}>
          {sending ? 'Sending...' : 'Unlock My Estimate'}
        </button>
      </form>
    </Modal>
  );
}
