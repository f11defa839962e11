import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { z } from 'zod';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { Field } from '../../ui/Field.tsx';
import { useLeadSubmission } from './use-lead-submission.ts';
import { Modal } from '../../ui/Modal.tsx';
import { sourcePage, track } from '../site/analytics.ts';
import { $openModal, closeModal } from '../site/page-modals.ts';
import { contactLeadSchema, LEAD_SOURCES } from './lead.ts';

interface ContactModalProps {
  agentSlug: string;
  agentFullName: string;
  source: (typeof LEAD_SOURCES)[number];
  submitLabel: string;
}

const emptyForm = { firstName: '', lastName: '', phone: '', email: '', address: '', consent: false };
const acceptedSchema = z.object({ success: z.literal(true) });

export const LEAD_THANKS = 'Thank you! We will be in touch soon.';
export const LEAD_FAILED = 'There was an error submitting your information. Please try again.';

export default function ContactModal({ agentSlug, agentFullName, source, submitLabel }: ContactModalProps) {
  const open = useStore($openModal) === 'contact';
  const [form, setForm] = useState(emptyForm);
  const { errors, setErrors, sending, submitLead } = useLeadSubmission(acceptedSchema);

  const close = () => {
    setErrors({});
    closeModal();
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const lead = {
      agent_slug: agentSlug,
      firstName: form.firstName,
      lastName: form.lastName,
      phone: form.phone,
      email: form.email,
      address: form.address,
      source,
      consent_marketing: form.consent,
    };
    try {
      const outcome = await submitLead(contactLeadSchema, lead);
      if (outcome.kind !== 'accepted') return;
      track({ event: 'lead_submitted', source_page: sourcePage(), source });
      window.alert(LEAD_THANKS);
      setForm(emptyForm);
      closeModal();
    } catch {
      window.alert(LEAD_FAILED);
    }
  };

  const text = (key: 'firstName' | 'lastName' | 'phone' | 'email' | 'address') => ({
    name: key,
    value: form[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  return (
    <Modal open={open} title={`Work with ${agentFullName}`} onClose={close}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="note">
          Homes marketed with our listing showcase reach more buyers: on average about 2% higher sale prices and 75%
          more engagement. Tell us about your home and {agentFullName} will call you.
        </p>
        <div className="form-row">
          <Field label="First name" autoComplete="given-name" required {...text('firstName')} />
          <Field label="Last name" autoComplete="family-name" required {...text('lastName')} />
        </div>
        <div className="form-row">
          <Field label="Phone" type="tel" autoComplete="tel" required {...text('phone')} />
          <Field label="Email" type="email" autoComplete="email" required {...text('email')} />
        </div>
        <Field label="Property address (optional)" autoComplete="street-address" {...text('address')} />
        <CheckboxField
          name="consent"
          checked={form.consent}
          error={errors.consent_marketing}
          onChange={(consent) => setForm({ ...form, consent })}
        >
          I agree to be contacted by {agentFullName} by phone, text or email about selling my home. Consent is not a
          condition of any service.
        </CheckboxField>
        <div className="modal-actions">
          <button type="submit" className="button button-primary" disabled={sending}>
            {sending ? 'Sending...' : submitLabel}
          </button>
          <button type="button" className="button button-secondary" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
