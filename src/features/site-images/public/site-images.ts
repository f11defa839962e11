/**
 * The site-wide images an admin uploads on /admin/settings (the OG image, the website logo and the
 * town-page logo) and the logo settings: the limits, request and answer schemas and the spec's
 * messages, shared by the cards and the routes (src/features/site-images/public/site-images.server.ts).
 */
import * as z from 'zod/mini';
import type { StoredSize } from '../../../ui/uploads.ts';

const MB = 1024 * 1024;

/**
 * The spec's limits (§9) on the file the admin picks: an OG image 5MB; logos as an agent's logo,
 * 10MB (2MB recommended). The browser then scales it to what is stored (SITE_IMAGE_SIZES), so that
 * the upload fits one request (MAX_UPLOAD_BODY_BYTES, decision 0027).
 */
export const SITE_IMAGE_LIMITS = {
  ogImageBytes: 5 * MB,
  logoBytes: 10 * MB,
  /** The town-page logo is stored within this box, its aspect ratio kept. */
  townLogoWidth: 300,
  townLogoHeight: 100,
  scaleMin: 0.5,
  scaleMax: 2,
  scaleStep: 0.1,
} as const;

/** What is stored of each site-wide image (the browser never sends more). */
export const SITE_IMAGE_SIZES = {
  /** Link previews show a photo; 1200 px wide is the largest size they use. */
  ogImage: { maxSide: 1200, output: 'jpeg' },
  /** Logos keep transparency as PNG. */
  websiteLogo: { maxSide: 1200, output: 'png' },
  townLogo: { maxSide: SITE_IMAGE_LIMITS.townLogoWidth, maxHeight: SITE_IMAGE_LIMITS.townLogoHeight, output: 'png' },
} as const satisfies Record<string, StoredSize>;

export const SITE_IMAGE_MESSAGES = {
  ogTooLarge: 'Image must be smaller than 5MB',
  ogUploaded: 'OG image uploaded successfully!',
  ogUploadFailed: 'Failed to upload OG image',
  ogDeleted: 'OG image deleted successfully!',
  ogDeleteFailed: 'Failed to delete image',
  logoTooLarge: 'Logo must be less than 10MB',
  logoUploaded: 'Website logo uploaded successfully!',
  logoUploadFailed: 'Failed to upload logo',
  logoDeleted: 'Website logo deleted successfully!',
  logoDeleteFailed: 'Failed to delete logo',
  websiteSaved: 'Website settings saved successfully!',
  websiteSaveFailed: 'Failed to save website settings',
  townLogoUploaded: 'Town page logo uploaded successfully!',
  townLogoUploadFailed: 'Failed to upload town page logo',
  townLogoDeleted: 'Town page logo deleted successfully!',
  townLogoDeleteFailed: 'Failed to delete town page logo',
  townLogoSaved: 'Town page logo settings saved successfully!',
  townLogoSaveFailed: 'Failed to save town page logo settings',
  loadFailed: 'Failed to load current settings',
  scaleRange: 'Logo scale must be between 0.5 and 2.0',
  scaleStep: 'Logo scale goes in steps of 0.1',
  noChange: 'Send website_logo_scale or show_town_page_logo',
  uploadedApart: 'The logo images are uploaded and deleted through their upload routes',
} as const;

/** POST /api/upload/og-image, /api/upload/website-logo and /api/upload/town-logo (and /town-logo-api.php). */
export const siteImageUploadSchema = z.object({
  /** Base64, bare or as a data URL. */
  image: z.string({ error: 'Please select an image file' }).check(z.minLength(1, 'Please select an image file')),
  filename: z.optional(
    z.string({ error: 'filename must be text' }).check(z.maxLength(255, 'filename must be at most 255 characters')),
  ),
});

export const siteImageAnswerSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Where the stored image is served: /api/images/{hash}.{jpg|png}. */
  image_data: z.string(),
  mime_type: z.enum(['image/jpeg', 'image/png']),
});

export const siteImageDeletedSchema = z.object({ success: z.literal(true), message: z.string() });

const hasOneDecimal = (value: number) => Math.abs(value * 10 - Math.round(value * 10)) < 1e-6;

export const logoScaleSchema = z
  .number({
    error: (issue) => (issue.input === undefined ? 'Logo scale is required' : 'Logo scale must be a number'),
  })
  .check(
    z.gte(SITE_IMAGE_LIMITS.scaleMin, SITE_IMAGE_MESSAGES.scaleRange),
    z.lte(SITE_IMAGE_LIMITS.scaleMax, SITE_IMAGE_MESSAGES.scaleRange),
    z.refine(hasOneDecimal, SITE_IMAGE_MESSAGES.scaleStep),
  );

/**
 * Shapes 2 and 3 of PATCH /api/agents/me/settings (admins only): the website logo's scale, the
 * town-page logo's show toggle. The images themselves go through the upload routes.
 */
export const siteLogoSettingsSchema = z
  .strictObject(
    {
      website_logo_scale: z.optional(logoScaleSchema),
      show_town_page_logo: z.optional(z.boolean({ error: 'show_town_page_logo must be true or false' })),
    },
    {
      error: (issue) => (issue.code === 'unrecognized_keys' ? SITE_IMAGE_MESSAGES.uploadedApart : undefined),
    },
  )
  .check(
    z.refine(
      (body) => body.website_logo_scale !== undefined || body.show_town_page_logo !== undefined,
      SITE_IMAGE_MESSAGES.noChange,
    ),
  )
  .register(z.globalRegistry, { minProperties: 1 });
export type SiteLogoSettingsInput = z.input<typeof siteLogoSettingsSchema>;

/** GET /api/global/settings (public) and the answer of a logo settings PATCH. */
export const siteLogosSchema = z.object({
  website_logo: z.nullable(z.string()),
  website_logo_type: z.string(),
  website_logo_scale: z.number(),
  town_page_logo: z.nullable(z.string()),
  town_page_logo_type: z.nullable(z.string()),
  show_town_page_logo: z.boolean(),
});
export type SiteLogos = z.infer<typeof siteLogosSchema>;

export const siteLogosAnswerSchema = z.object({ success: z.literal(true), settings: siteLogosSchema });
export const siteLogosSavedSchema = z.extend(siteLogosAnswerSchema, { message: z.string() });
