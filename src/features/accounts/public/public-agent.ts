import * as z from 'zod/mini';

export const agentSlugSchema = z
  .string()
  .check(
    z.maxLength(64, 'Agent slug is too long'),
    z.regex(/^[a-z0-9]+$/, 'Agent slug can only contain lowercase letters and numbers'),
  );

export const publicAgentSchema = z.object({
  success: z.literal(true),
  agent: z.object({
    id: z.number(),
    slug: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.nullable(z.string()),
    brokerage: z.nullable(z.string()),
    professional_title: z.nullable(z.string()),
    license_number: z.nullable(z.string()),
    website: z.nullable(z.string()),
    brokerage_street: z.nullable(z.string()),
    brokerage_city: z.nullable(z.string()),
    brokerage_state: z.nullable(z.string()),
    brokerage_zip: z.nullable(z.string()),
    show_profile_photo: z.boolean(),
    show_logo: z.boolean(),
    profile_photo: z.nullable(z.string()),
    logo: z.nullable(z.string()),
  }),
  settings: z.object({
    default_attorney_fee: z.number(),
    default_recording_fee: z.number(),
    transfer_tax_rate_per_1000: z.number(),
    default_commission_percent: z.number(),
  }),
  profile_complete: z.boolean(),
});

export type PublicAgentResponse = z.infer<typeof publicAgentSchema>;

/** What the public calculator page needs, in the order of the profile form, each in words. */
export const PROFILE_NEEDS = [
  { key: 'first_name', words: 'first name' },
  { key: 'last_name', words: 'last name' },
  { key: 'professional_title', words: 'professional title' },
  { key: 'brokerage', words: 'brokerage' },
] as const;
export type ProfileNeed = (typeof PROFILE_NEEDS)[number];

type ProfileFields = Record<ProfileNeed['key'], string | null>;

/** The needs still empty: the banners name only these (newcomer audit M6). */
export const missingProfileFields = (agent: ProfileFields): ProfileNeed[] =>
  PROFILE_NEEDS.filter(({ key }) => {
    const value = agent[key];
    return typeof value !== 'string' || value.trim() === '';
  });

/** The public calculator page works only once these are filled in. */
export const isProfileComplete = (agent: ProfileFields): boolean => missingProfileFields(agent).length === 0;
