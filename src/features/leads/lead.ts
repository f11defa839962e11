import { z } from 'zod';
import { UUID_PATTERN } from '../estimate/estimate-request.ts';

/** Where a lead came from, as the specs list them. */
export const LEAD_SOURCES = ['showcase', 'calculator', 'nassau_county_page', 'suffolk_county_page'] as const;

export const LIMITS = { name: 100, email: 254, phone: 30, address: 300, message: 2000, emailBody: 5000 } as const;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(LIMITS.email, 'Email is too long')
  .pipe(z.email('Please enter a valid email address'));

/** A phone number as typed; it must hold a US number's 10 digits (or 11 with the leading 1). */
const phoneWithDigits = (value: string) => /^1?\d{10}$/.test(value.replace(/\D/g, ''));
const phone = requiredText('Phone', LIMITS.phone).refine(phoneWithDigits, 'Please enter a valid phone number');
const optionalPhone = optionalText('Phone', LIMITS.phone).refine(
  (value) => value === null || phoneWithDigits(value),
  'Please enter a valid phone number',
);

const consent = z.literal(true, { error: 'Please agree to be contacted about your home sale' });
const source = (fallback: (typeof LEAD_SOURCES)[number]) =>
  z.enum(LEAD_SOURCES, { error: `Source must be one of ${LEAD_SOURCES.join(', ')}` }).default(fallback);
const estimateUuid = z.string({ error: 'Estimate id is required' }).regex(UUID_PATTERN, 'Estimate id is not valid');
const agentId = z
  .number({ error: 'Agent id must be a number' })
  .int('Agent id must be a whole number')
  .positive('Agent id must be a positive number');

/** Home and county pages' contact forms. */
export const contactLeadSchema = z.object({
  agent_slug: requiredText('Agent', 64),
  firstName: requiredText('First name', LIMITS.name),
  lastName: requiredText('Last name', LIMITS.name),
  phone,
  email,
  address: optionalText('Address', LIMITS.address),
  source: source('showcase'),
  consent_marketing: consent,
});

/** The public agent page's unlock form. */
export const agentPageLeadSchema = z.object({
  agent_id: agentId,
  first_name: requiredText('First name', LIMITS.name),
  last_name: requiredText('Last name', LIMITS.name),
  email,
  phone,
  address: optionalText('Address', LIMITS.address),
  source: source('calculator'),
  consent_marketing: consent,
  estimate_uuid: estimateUuid.nullish(),
  email_body: optionalText('Email body', LIMITS.emailBody),
});

/** The estimate page's "Send this to my email" form; the lead goes to the estimate's agent. */
export const estimatePageLeadSchema = z.object({
  agent_id: agentId.optional(),
  name: requiredText('Full name', LIMITS.name),
  email,
  phone: optionalPhone,
  message: optionalText('Message', LIMITS.message),
  source: source('calculator'),
  consent_marketing: consent,
  estimate_uuid: estimateUuid,
  email_body: optionalText('Email body', LIMITS.emailBody),
});

export type ContactLead = z.input<typeof contactLeadSchema>;
