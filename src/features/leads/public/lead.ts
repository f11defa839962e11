import * as z from 'zod/mini';
import { optionalText, requiredText } from '../../forms/public/text-fields.ts';
import { NAME_PART_MAX, personName } from '../../forms/public/person-name.ts';
import { UUID_PATTERN } from '../../net-sheet/public/estimate-request.ts';
import { recordId } from '../../forms/public/record-id.ts';
import { EMBED_SOURCE, UTM_KEYS, UTM_MAX_LENGTH } from '../../lead-origin/public/lead-origin.ts';
import { hostPageSchema } from '../../embed/public/host-page.ts';
import { OPT_IN_STATUSES, PLACE_MAX } from '../../seller-updates/public/opt-in.ts';

export { UTM_KEYS };

/** Where a lead came from, as the specs list them. */
export const LEAD_SOURCES = ['showcase', 'calculator', 'nassau_county_page', 'suffolk_county_page'] as const;

export const LIMITS = {
  namePart: NAME_PART_MAX,
  name: 100,
  page: 200,
  email: 254,
  phone: 30,
  address: 300,
  message: 2000,
  /** The contact form's optional note to the agent (newcomer audit minor 19). */
  contactMessage: 1000,
  emailBody: 5000,
  utm: UTM_MAX_LENGTH,
  /** The town or ZIP code typed under the updates box (issue 25). */
  updatesPlace: PLACE_MAX,
} as const;

/** The hidden field a person never fills in (the forms hide it); a bot that fills it is dropped. */
export const HONEYPOT_FIELD = 'company_site';
const honeypot = z.pipe(
  z.optional(z.unknown()),
  z.transform((value) => value !== undefined && value !== null && value !== ''),
);

/** The site path of the page the form was on, e.g. /long-island-real-estate/bay-shore. */
const page = z.pipe(
  z.nullish(
    z
      .string({ error: 'Page must be a site path' })
      .check(
        z.maxLength(LIMITS.page, `Page must be at most ${LIMITS.page} characters`),
        z.regex(/^\/[a-z0-9/_-]*$/, 'Page must be a site path such as /long-island-real-estate/bay-shore'),
      ),
  ),
  z.transform((value) => value ?? null),
);

const email = z.pipe(
  z
    .string({ error: 'Email is required' })
    .check(z.trim(), z.minLength(1, 'Email is required'), z.maxLength(LIMITS.email, 'Email is too long')),
  z.email('Please enter a valid email address'),
);

/** A phone number as typed; it must hold a US number's 10 digits (or 11 with the leading 1). */
const phoneWithDigits = (value: string) => /^1?\d{10}$/.test(value.replace(/\D/g, ''));
const phone = requiredText('Phone', LIMITS.phone).check(z.refine(phoneWithDigits, 'Please enter a valid phone number'));
const optionalPhone = optionalText('Phone', LIMITS.phone).check(
  z.refine((value) => value === null || phoneWithDigits(value), 'Please enter a valid phone number'),
);

const utmValue = (key: string) =>
  z.optional(
    z
      .string({ error: `utm_${key} must be text` })
      .check(
        z.trim(),
        z.minLength(1, `utm_${key} must not be empty`),
        z.maxLength(LIMITS.utm, `utm_${key} must be at most ${LIMITS.utm} characters`),
      ),
  );
/** The campaign the visitor arrived from, kept with the lead (issue 23, M1). Unknown keys are refused. */
export const utmSchema = z.pipe(
  z.nullish(
    z.strictObject(
      {
        source: utmValue('source'),
        medium: utmValue('medium'),
        campaign: utmValue('campaign'),
        term: utmValue('term'),
        content: utmValue('content'),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `utm takes only ${UTM_KEYS.join(', ')}` : undefined) },
    ),
  ),
  z.transform((utm) => (utm && Object.values(utm).some((value) => value !== undefined) ? utm : null)),
);
export type Utm = NonNullable<z.output<typeof utmSchema>>;

const consent = z.literal(true, { error: 'Please agree to be contacted about your home sale' });
/** What a form may send as its source: the specs' four, and `embed` from the embedded calculator's frame. */
const FORM_SOURCES = [...LEAD_SOURCES, EMBED_SOURCE] as const;
const source = (fallback: (typeof LEAD_SOURCES)[number]) =>
  z._default(z.enum(FORM_SOURCES, { error: `Source must be one of ${FORM_SOURCES.join(', ')}` }), fallback);
const estimateUuid = z
  .string({ error: 'Estimate id is required' })
  .check(z.regex(UUID_PATTERN, 'Estimate id is not valid'));
const agentId = recordId('Agent id');
/** The unticked-by-default box "Send me a monthly update of my estimated net" (issue 25); never assumed. */
const updatesOptIn = z._default(z.boolean({ error: 'updates_opt_in must be true or false' }), false);
/**
 * The home's town or ZIP code, typed under the ticked box: where the updates' market is (issue 25).
 * Read only with the box ticked; the server matches it to a town and keeps only that town.
 */
const updatesPlace = optionalText('Town or ZIP code', LIMITS.updatesPlace);

/** Home and county pages' contact forms. */
export const contactLeadSchema = z.object({
  agent_slug: requiredText('Agent', 64),
  firstName: personName('First name', LIMITS.namePart),
  lastName: personName('Last name', LIMITS.namePart),
  phone,
  email,
  address: optionalText('Address', LIMITS.address),
  /** Plain text: the agent's e-mail escapes it, the dashboard shows it as text, the CRM note is text. */
  message: optionalText('Message', LIMITS.contactMessage),
  source: source('showcase'),
  consent_marketing: consent,
  /** The estimate the visitor just made ("Talk to {agent}" after an estimate); it must be the agent's. */
  estimate_uuid: z.nullish(estimateUuid),
  updates_opt_in: updatesOptIn,
  updates_place: updatesPlace,
  page,
  /** The page the embedded calculator was on (its frame sends it); kept only for a site the agent lists. */
  host_page: hostPageSchema,
  utm: utmSchema,
  [HONEYPOT_FIELD]: honeypot,
});

/** The public agent page's unlock form. */
export const agentPageLeadSchema = z.object({
  agent_id: agentId,
  first_name: personName('First name', LIMITS.namePart),
  last_name: personName('Last name', LIMITS.namePart),
  email,
  phone,
  address: optionalText('Address', LIMITS.address),
  source: source('calculator'),
  consent_marketing: consent,
  estimate_uuid: z.nullish(estimateUuid),
  updates_opt_in: updatesOptIn,
  updates_place: updatesPlace,
  email_body: optionalText('Email body', LIMITS.emailBody),
  page,
  /** The page the embedded calculator was on (its frame sends it); kept only for a site the agent lists. */
  host_page: hostPageSchema,
  utm: utmSchema,
  [HONEYPOT_FIELD]: honeypot,
});

/** The estimate page's "Send this to my email" form; the lead goes to the estimate's agent. */
export const estimatePageLeadSchema = z.object({
  agent_id: z.optional(agentId),
  name: personName('Full name', LIMITS.name),
  email,
  phone: optionalPhone,
  message: optionalText('Message', LIMITS.message),
  source: source('calculator'),
  consent_marketing: consent,
  estimate_uuid: estimateUuid,
  updates_opt_in: updatesOptIn,
  updates_place: updatesPlace,
  email_body: optionalText('Email body', LIMITS.emailBody),
  page,
  /** The page the embedded calculator was on (its frame sends it); kept only for a site the agent lists. */
  host_page: hostPageSchema,
  utm: utmSchema,
  [HONEYPOT_FIELD]: honeypot,
});

export type ContactLead = z.input<typeof contactLeadSchema>;

/** What became of the estimate e-mail an agent-page unlock asks for (issue 23, M3). */
export const ESTIMATE_EMAIL_STATUSES = ['queued', 'already_sent', 'limited', 'none'] as const;
export type EstimateEmailStatus = (typeof ESTIMATE_EMAIL_STATUSES)[number];

/**
 * POST /api/leads's answer: the lead, its CRM sync and the visitor's estimate e-mail, so a page says
 * "we have e-mailed it" only when it was queued (queued: now; already_sent: to this lead before),
 * and when a cap stopped it, when it can go again.
 */
export const leadAnswerSchema = z.object({
  success: z.literal(true),
  lead: z.object({ id: z.number().check(z.int(), z.positive()), created_at: z.string() }),
  fub_sync_status: z.enum(['synced', 'no_api_key', 'no_integration', 'failed']),
  estimate_email: z.object({
    status: z.enum(ESTIMATE_EMAIL_STATUSES),
    /** For `limited`: seconds until the address's hourly cap lets another estimate go. */
    retry_after_seconds: z.nullable(z.number().check(z.int(), z.nonnegative())),
  }),
  /** The monthly updates' confirmation e-mail: a form says "check your inbox" only for confirmation_sent. */
  updates: z.enum(OPT_IN_STATUSES),
});
export type LeadAnswer = z.output<typeof leadAnswerSchema>;
