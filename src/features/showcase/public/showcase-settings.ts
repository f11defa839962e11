/**
 * The admin's showcase: PATCH /api/agents/me/showcase, the image routes under /api/images and the
 * /admin/showcase screen share these limits, schemas and messages.
 */
import * as z from 'zod/mini';
import { groupDigits } from '../../../ui/money.ts';
import type { StoredSize } from '../../../ui/uploads.ts';

export const SHOWCASE_LIMITS = {
  maxPriceDollars: 100_000_000,
  maxAddress: 200,
  maxBeds: 100,
  maxBaths: 100,
  maxSqft: 1_000_000,
  /**
   * The spec's showcase image limit, on the file the admin picks (checked in the browser, which then
   * scales it to SHOWCASE_IMAGE_SIZE so that the upload fits one request, decision 0027).
   */
  maxImageBytes: 5 * 1024 * 1024,
  /** More pictures than a carousel can sensibly cycle through (one every 6 s). */
  maxImages: 30,
  maxPath: 300,
} as const;

/**
 * What is stored of a showcase photo: the card is 640 CSS pixels wide at most, so 1280 covers it on
 * a 2x screen. JPEG, as every browser shows it and photos of homes need no transparency.
 */
export const SHOWCASE_IMAGE_SIZE: StoredSize = { maxSide: 1280, output: 'jpeg' };

export const SHOWCASE_MESSAGES = {
  saved: 'Showcase settings saved successfully!',
  saveFailed: 'Failed to save settings',
  saveError: 'An error occurred while saving settings',
  loadFailed: 'Failed to load current settings',
  imageTooLarge: 'Image must be smaller than 5MB',
  wrongFormat: 'Only JPG, PNG, and WebP images are allowed',
  uploaded: 'Image uploaded successfully!',
  uploadFailed: 'Failed to upload image',
  alreadyShown: 'This image is already in the showcase',
  deleted: 'Image deleted successfully!',
  deleteFailed: 'Failed to delete image',
  notInList: 'That image is not in the showcase',
  reordered: 'Image order saved',
  reorderFailed: 'Failed to save the image order',
  listChanged: 'The showcase images changed meanwhile; reload the page and try again.',
} as const;

/** The spec's fallback of GET /api/images/list when no image has been uploaded: four default pictures. */
export const SHOWCASE_DEFAULT_IMAGES = [
  '/showcase/demo-1.svg',
  '/showcase/demo-2.svg',
  '/showcase/demo-3.svg',
  '/showcase/demo-4.svg',
] as const;

const aNumber = (label: string) =>
  z.number({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
  });

/** Whole cents: checked on the scaled value, so float noise in 780200.1 * 100 is tolerated. */
const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const count = (label: string, max: number) =>
  aNumber(label).check(
    z.int(`${label} must be a whole number`),
    z.gte(1, `${label} must be at least 1`),
    z.lte(max, `${label} must be at most ${groupDigits(String(max))}`),
  );

const FIELD_RULES = {
  showcase_property_price: aNumber('Price').check(
    z.gt(0, 'Price must be more than $0'),
    z.lte(SHOWCASE_LIMITS.maxPriceDollars, 'Price must be at most $100,000,000'),
    z.refine(hasAtMostTwoDecimals, 'Price can have at most two decimals (cents)'),
  ),
  showcase_property_address: z
    .string('Address is required')
    .check(
      z.trim(),
      z.minLength(1, 'Address is required'),
      z.maxLength(SHOWCASE_LIMITS.maxAddress, `Address must be at most ${SHOWCASE_LIMITS.maxAddress} characters`),
    ),
  showcase_property_beds: count('Beds', SHOWCASE_LIMITS.maxBeds),
  // The column keeps one decimal: half baths are the only fractions a listing uses.
  showcase_property_baths: aNumber('Baths').check(
    z.gte(1, 'Baths must be at least 1'),
    z.lte(SHOWCASE_LIMITS.maxBaths, `Baths must be at most ${SHOWCASE_LIMITS.maxBaths}`),
    z.refine((value) => Number.isInteger(value * 2), 'Baths go in steps of 0.5 (for example 2 or 2.5)'),
  ),
  showcase_property_sqft: count('Square feet', SHOWCASE_LIMITS.maxSqft),
};

/** PATCH /api/agents/me/showcase: the card's five figures, all of them. */
export const showcaseFieldsSchema = z.strictObject(FIELD_RULES);
export type ShowcaseFields = z.output<typeof showcaseFieldsSchema>;

/** A typed number of the form: blank is "required", anything else goes to the API's rule as a number. */
const typed = (rule: z.ZodMiniType<number, number | undefined>) =>
  z.pipe(
    z.pipe(
      z.string().check(z.trim()),
      z.transform((text) => (text === '' ? undefined : Number(text.replace(/[$,]/g, '')))),
    ),
    rule,
  );

/** The form's draft (what the admin typed), checked by the API's rules and turned into its body. */
export const showcaseDraftSchema = z.object({
  showcase_property_price: typed(FIELD_RULES.showcase_property_price),
  showcase_property_address: FIELD_RULES.showcase_property_address,
  showcase_property_beds: typed(FIELD_RULES.showcase_property_beds),
  showcase_property_baths: typed(FIELD_RULES.showcase_property_baths),
  showcase_property_sqft: typed(FIELD_RULES.showcase_property_sqft),
});

export const showcaseSavedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  settings: showcaseFieldsSchema,
});

/** GET /api/showcase/settings read for the admin's form: the figures only. */
export const showcaseFieldsAnswerSchema = z.object({ success: z.literal(true), settings: z.object(FIELD_RULES) });

/** GET /api/showcase/settings (public): the figures and the comma-separated image list. */
export const showcasePublicSchema = z.object({
  success: z.literal(true),
  settings: z.extend(showcaseFieldsSchema, { showcase_images: z.string() }),
});

/** A path in the showcase list: one of ours (no commas, which separate the list's entries). */
const imagePath = z
  .string('Choose an image')
  .check(
    z.minLength(1, 'Choose an image'),
    z.maxLength(SHOWCASE_LIMITS.maxPath, 'That image is not in the showcase'),
    z.regex(/^\/[^,\s]*$/, 'That image is not in the showcase'),
  );

/** DELETE /api/images/delete. */
export const deleteImageSchema = z.strictObject({ imagePath });

/** PUT /api/images/order: every image of the list, in the new order. */
export const imageOrderSchema = z.strictObject({
  images: z
    .array(imagePath, 'Send the images as a list')
    .check(z.maxLength(SHOWCASE_LIMITS.maxImages, `At most ${SHOWCASE_LIMITS.maxImages} images`)),
});

/** GET /api/images/list: the showcase images in order; the four defaults (is_default) when none is uploaded. */
export const imageListSchema = z.object({
  success: z.literal(true),
  images: z.array(z.string()),
  is_default: z.boolean(),
});

export const imageUploadedSchema = z.object({
  success: z.literal(true),
  filename: z.string(),
  images: z.array(z.string()),
});

export const imagesChangedSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  images: z.array(z.string()),
});
