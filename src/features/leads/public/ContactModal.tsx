import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { Field } from '../../../ui/Field.tsx';
import { TextAreaField } from '../../../ui/TextAreaField.tsx';
import { HoneypotField } from '../../../ui/HoneypotField.tsx';
import { formatMoney } from '../../../ui/money.ts';
import { Notice } from '../../../ui/Notice.tsx';
import { LEAD_FAILED, useLeadSubmission } from './use-lead-submission.ts';
import { Modal } from '../../../ui/Modal.tsx';
import { sourcePage, track } from '../../../ui/analytics.ts';
import { $contactContext, $openModal, closeModal, type ContactContext } from './page-modals.ts';
import { ConsentField } from './ConsentField.tsx';
import { contactLeadSchema, LEAD_SOURCES, LIMITS } from './lead.ts';
import { UpdatesOptInField } from '../../seller-updates/public/UpdatesOptInField.tsx';
import { OPT_IN_STATUSES, optInMessage } from '../../seller-updates/public/opt-in.ts';

interface ContactModalProps {
  agentSlug: string;
  agentFullName: string;
  source: (typeof LEAD_SOURCES)[number];
  submitLabel: string;
  /** The town of the town page the form is on, if any: the updates' place starts with it. */
  homeTown?: string | undefined;
}

const emptyForm = {
  firstName: '',
  lastName: '',
  phone: '',
  email: '',
  address: '',
  message: '',
  consent: false,
  updates: false,
  place: '',
};
const acceptedSchema = z.object({ success: z.literal(true), updates: z.enum(OPT_IN_STATUSES) });

const LEAD_THANKS = 'Thank you! We will be in touch soon.';

function attachedLine({ estimate }: ContactContext): string {
  const net = estimate.net_to_seller;
  return net < 0
    ? `Your estimate (${formatMoney(-net)} to bring to closing) will be attached.`
    : `Your estimate of ${formatMoney(net)} net will be attached.`;
}

export default function ContactModal({ agentSlug, agentFullName, source, submitLabel, homeTown }: ContactModalProps) {
  const open = useStore($openModal) === 'contact';
  const context = useStore($contactContext);
  const startForm = { ...emptyForm, place: homeTown ?? '' };
  const [form, setForm] = useState(startForm);
  /** The thanks shown after a lead, with what became of the monthly updates' confirmation; null before one. */
  const [thanked, setThanked] = useState<string | null>(null);
  const { errors, setErrors, failure, setFailure, sending, submitLead, honeypot } = useLeadSubmission(acceptedSchema);

  // Coming from an estimate, the seller has already told us their first name.
  const [prefilledFrom, setPrefilledFrom] = useState<ContactContext | null>(null);
  if (context !== prefilledFrom) {
    setPrefilledFrom(context);
    if (context && !form.firstName) setForm({ ...form, firstName: context.firstName });
  }
  // A new visit to the form starts without the last one's messages.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setThanked(null);
      setFailure(null);
    }
  }

  const close = () => {
    setErrors({});
    setFailure(null);
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
      message: form.message,
      source,
      consent_marketing: form.consent,
      estimate_uuid: context?.estimate.uuid,
      // Only a form about an estimate offers the box: there is a net to update.
      updates_opt_in: context ? form.updates : false,
      updates_place: context && form.updates ? form.place : null,
    };
    try {
      const outcome = await submitLead(contactLeadSchema, lead);
      if (outcome.kind !== 'accepted') return;
      track({ event: 'lead_submitted', source_page: sourcePage(), source });
      setForm(startForm);
      $contactContext.set(null);
      closeModal();
      setThanked([LEAD_THANKS, optInMessage(outcome.answer.updates)].filter(Boolean).join(' '));
    } catch {
      setFailure(LEAD_FAILED);
    }
  };

  const text = (key: 'firstName' | 'lastName' | 'phone' | 'email' | 'address' | 'message') => ({
    name: key,
    value: form[key],
    error: errors[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  return (
    <>
      <Modal open={open} title={`Work with ${agentFullName}`} onClose={close}>
        <form className="form" noValidate onSubmit={(event) => void submit(event)}>
          <p className="note">
            {/* No figures here: the claims, each with its source, are on the page itself (minor 34). */}
            Tell us about your home and {agentFullName} will call you.
          </p>
          {context ? <p className="note">{attachedLine(context)}</p> : null}
          <div className="form-row">
            <Field label="First name" autoComplete="given-name" required {...text('firstName')} />
            <Field label="Last name" autoComplete="family-name" required {...text('lastName')} />
          </div>
          <div className="form-row">
            <Field label="Phone" type="tel" autoComplete="tel" required {...text('phone')} />
            <Field label="Email" type="email" autoComplete="email" required {...text('email')} />
          </div>
          <Field label="Property address (optional)" autoComplete="street-address" {...text('address')} />
          <TextAreaField
            label="Message (optional)"
            rows={3}
            maxLength={LIMITS.contactMessage}
            hint={`Anything ${agentFullName} should know, such as a good time to call. Up to ${LIMITS.contactMessage.toLocaleString('en-US')} characters.`}
            {...text('message')}
          />
          <ConsentField
            agentName={agentFullName}
            checked={form.consent}
            error={errors.consent_marketing}
            onChange={(consent) => setForm({ ...form, consent })}
          />
          {context ? (
            <UpdatesOptInField
              checked={form.updates}
              onChange={(updates) => setForm({ ...form, updates })}
              place={form.place}
              placeError={errors.updates_place}
              onPlaceChange={(place) => setForm({ ...form, place })}
            />
          ) : null}
          <HoneypotField {...honeypot} />
          <Notice tone="error" message={failure} />
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
      <Notice tone="success" message={thanked} onDismiss={() => setThanked(null)} />
    </>
  );
}
