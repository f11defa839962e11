import * as z from 'zod';

export const agentSlugSchema = z
  .string()
  .max(64, 'Agent slug is too long')
  .regex(/^[a-z0-9]+$/, 'Agent slug can only contain lowercase letters and numbers');

export const publicAgentSchema = z.object({
  success: z.literal(true),
  agent: z.object({
    id: z.number(),
    slug: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    brokerage: z.string().nullable(),
    professional_title: z.string().nullable(),
    license_number: z.string().nullable(),
    website: z.string().nullable(),
    brokerage_street: z.string().nullable(),
    brokerage_city: z.string().nullable(),
    brokerage_state: z.string().nullable(),
    brokerage_zip: z.string().nullable(),
    show_profile_photo: z.boolean(),
    show_logo: z.boolean(),
    profile_photo: z.string().nullable(),
    logo: z.string().nullable(),
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
