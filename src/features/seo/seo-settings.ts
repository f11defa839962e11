/**
 * The site's search-engine and social-preview defaults: GET and PUT /api/seo/settings and the
 * admin's SEO form share these limits, schemas and messages. (The OG image is uploaded apart.)
 */
import * as z from 'zod/mini';
import { optionalText, requiredText } from '../forms/public/text-fields.ts';

/** The spec's limits, each shown with a live counter on the form. */
export const SEO_LIMITS = {
  seo_title: 60,
  og_title: 90,
  seo_description: 160,
  og_description: 200,
  og_url: 2000,
  seo_keywords: 500,
} as const;

export const TWITTER_CARDS = ['summary', 'summary_large_image', 'app', 'player'] as const;

export const SEO_MESSAGES = {
  saved: 'SEO settings saved successfully!',
  saveFailed: 'Failed to save SEO settings',
  saveError: 'An error occurred while saving settings',
  loadFailed: 'Failed to load current settings',
} as const;

/** PUT: every field; blank optional ones are cleared. */
export const seoSettingsSchema = z.strictObject({
  seo_title: requiredText('Page title', SEO_LIMITS.seo_title),
  seo_description: requiredText('Meta description', SEO_LIMITS.seo_description),
  og_title: optionalText('OG title', SEO_LIMITS.og_title),
  og_description: optionalText('OG description', SEO_LIMITS.og_description),
  og_url: optionalText('OG URL', SEO_LIMITS.og_url).check(
    z.refine(
      (value) => value === null || /^https?:\/\/[^\s]+$/i.test(value),
      'Enter a full address starting with https://',
    ),
  ),
  twitter_card: z.enum(TWITTER_CARDS, 'Choose summary, summary_large_image, app or player'),
  seo_keywords: optionalText('Keywords', SEO_LIMITS.seo_keywords),
});
export type SeoSettingsInput = z.input<typeof seoSettingsSchema>;
export type SeoSettings = z.output<typeof seoSettingsSchema>;

export const seoAnswerSchema = z.object({ success: z.literal(true), settings: seoSettingsSchema });
/** GET /api/seo/settings as the OG image card reads it. */
export const ogImageAnswerSchema = z.object({ success: z.literal(true), og_image: z.nullable(z.string()) });
export const seoSavedSchema = z.extend(seoAnswerSchema, { message: z.string() });
