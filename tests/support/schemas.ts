/**
 * The API's success responses as the specs describe them, written independently of src/ so a test
 * notices when a response gains, loses or retypes a field. Strict: an extra key fails the parse.
 */
import * as z from 'zod';

export const globalSettingsResponse = z.strictObject({
  success: z.literal(true),
  settings: z.strictObject({
    website_logo: z.string().nullable(),
    website_logo_scale: z.number(),
    website_logo_type: z.string(),
    // The town-page logo and its toggle, for the admin's logo cards (the town pages get it built in).
    town_page_logo: z.string().nullable(),
    town_page_logo_type: z.string().nullable(),
    show_town_page_logo: z.boolean(),
  }),
});

export const showcaseSettingsResponse = z.strictObject({
  success: z.literal(true),
  settings: z.strictObject({
    showcase_property_price: z.number(),
    showcase_property_address: z.string(),
    showcase_property_beds: z.number(),
    showcase_property_baths: z.number(),
    showcase_property_sqft: z.number(),
    showcase_images: z.string(),
  }),
});

export const publicAgentResponse = z.strictObject({
  success: z.literal(true),
  agent: z.strictObject({
    id: z.number().int(),
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
  settings: z.strictObject({
    default_attorney_fee: z.number(),
    default_recording_fee: z.number(),
    transfer_tax_rate_per_1000: z.number(),
    default_commission_percent: z.number(),
  }),
  profile_complete: z.boolean(),
});

export const estimate = z.strictObject({
  uuid: z.string(),
  agent_id: z.number().int(),
  agent_slug: z.string(),
  sale_price: z.number(),
  mortgage_payoff: z.number(),
  commission: z.number(),
  commission_percent: z.number(),
  transfer_tax: z.number(),
  transfer_tax_rate_per_1000: z.number(),
  lawyer_fee: z.number(),
  recording_fee: z.number(),
  net_to_seller: z.number(),
  recipient_name: z.string().nullable(),
  created_at: z.string(),
});

export type Estimate = z.output<typeof estimate>;

export const estimateResponse = z.strictObject({ success: z.literal(true), estimate });

export const leadResponse = z.strictObject({
  success: z.literal(true),
  lead: z.strictObject({ id: z.number().int().positive(), created_at: z.string() }),
  fub_sync_status: z.string(),
  estimate_email: z.strictObject({
    status: z.enum(['queued', 'already_sent', 'limited', 'none']),
    retry_after_seconds: z.number().int().nullable(),
  }),
  updates: z.enum(['confirmation_sent', 'limited', 'none']),
});
