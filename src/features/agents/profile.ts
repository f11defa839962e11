/**
 * The agent's own profile (/dashboard/profile): the rules of its form, shared by the screen (which
 * checks before sending) and the API (PUT /api/agents/profile and the upload routes, which check
 * again), the answer both read, and the spec's messages.
 */
import * as z from 'zod/mini';
import type { StoredSize } from '../../ui/uploads.ts';
import { optionalText, withoutLinks } from '../forms/public/text-fields.ts';
import { personName } from '../forms/public/person-name.ts';
import { emailSchema } from '../auth/public/auth-schemas.ts';
import { publicAgentSchema } from '../accounts/public/public-agent.ts';

/** The profile photo's picker types, as its messages name them: JPEG, PNG or WebP. */
export const PHOTO_TYPES = 'image/jpeg,image/png,image/webp';

export const PROFESSIONAL_TITLES = [
  'Broker/Principal Broker',
  'Licensed Associate Broker',
  'Licensed Real Estate Salesperson',
] as const;

/**
 * The most a photo or logo the agent picks may weigh (the spec's limit), checked in the browser on
 * the file chosen; the browser then scales it to what is stored (below) so that the upload fits one
 * request, which is what the server limits (MAX_UPLOAD_BODY_BYTES, decision 0027).
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A profile photo is stored as a square JPEG of at most 800 x 800 (the page shows it far smaller). */
export const PHOTO_SIZE: StoredSize = { maxSide: 800, output: 'jpeg' };
/** A business logo is stored as a PNG (transparency kept) of at most 1200 a side. */
export const LOGO_SIZE: StoredSize = { maxSide: 1200, output: 'png' };

export const PROFILE_MESSAGES = {
  saved: 'Profile updated successfully!',
  saveFailed: 'Failed to update profile. Please try again.',
  photoSaved: 'Profile photo updated successfully!',
  photoFailed: 'Failed to update profile photo',
  photoDeleted: 'Profile photo deleted successfully!',
  photoDeleteFailed: 'Failed to delete profile photo',
  logoSaved: 'Business logo uploaded successfully!',
  logoFailed: 'Failed to upload business logo',
  logoDeleted: 'Business logo deleted successfully!',
  logoDeleteFailed: 'Failed to delete business logo',
  photoTooLarge: 'Photo must be less than 10MB',
  logoTooLarge: 'Logo must be less than 10MB',
  notAnImage: 'Please select an image file',
} as const;

// An agent's name and brokerage are printed in every estimate e-mail and PDF of theirs, which go
// to typed addresses: no link or address in them (security audit finding 2, `withoutLinks`).
const requiredName = (label: string) => personName(label, 100);

/** 10 digits, or 11 with a leading 1 (dropped): stored as the 10 digits. */
const phoneSchema = z.pipe(
  optionalText('Phone', 30).check(
    z.refine((value) => value === null || /^1?\d{10}$/.test(value.replace(/\D/g, '')), 'Phone number is invalid'),
  ),
  z.transform((value) => (value === null ? null : value.replace(/\D/g, '').slice(-10))),
);

/** http(s) only (it becomes a link on the public page); a bare domain gets https://. */
const websiteSchema = z
  .pipe(
    optionalText('Website', 200),
    z.transform((value) => (value === null || /^https?:\/\//i.test(value) ? value : `https://${value}`)),
  )
  .check(
    z.refine((value) => {
      if (value === null) return true;
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.');
      } catch {
        return false;
      }
    }, 'Website must be a web address such as https://example.com'),
  );

/** A checkbox: a boolean from the screen's JSON, "true"/"false" from a multipart form. */
const flag = (label: string) =>
  z.union(
    [
      z.boolean(),
      z.pipe(
        z.enum(['true', 'false']),
        z.transform((value) => value === 'true'),
      ),
    ],
    {
      error: `${label} must be true or false`,
    },
  );

export const profileSchema = z.object({
  first_name: requiredName('First name'),
  last_name: requiredName('Last name'),
  email: emailSchema('Email is required'),
  phone: phoneSchema,
  brokerage: optionalText('Brokerage', 200).check(withoutLinks('Brokerage')),
  license_number: optionalText('License number', 50),
  website: websiteSchema,
  professional_title: z.enum(PROFESSIONAL_TITLES, { error: 'Please choose your professional title' }),
  brokerage_street: optionalText('Street', 200),
  brokerage_city: optionalText('City', 100),
  brokerage_state: z.pipe(
    optionalText('State', 2).check(
      z.refine((value) => value === null || /^[a-z]{2}$/i.test(value), 'State must be 2 letters, such as NY'),
    ),
    z.transform((value) => value?.toUpperCase() ?? null),
  ),
  brokerage_zip: optionalText('ZIP', 5).check(
    z.refine((value) => value === null || /^\d{5}$/.test(value), 'ZIP must be 5 digits'),
  ),
  show_profile_photo: flag('Show profile photo'),
  show_logo: flag('Show logo'),
});

export type ProfileInput = z.input<typeof profileSchema>;
export type ProfileFields = z.output<typeof profileSchema>;

/** POST /api/upload/profile-photo and /api/upload/logo: the image as a data URL, and its toggle. */
export const photoUploadSchema = z.object({
  imageData: z.string({ error: PROFILE_MESSAGES.notAnImage }),
  showProfilePhoto: z.optional(z.boolean({ error: 'showProfilePhoto must be true or false' })),
});
export const logoUploadSchema = z.object({
  imageData: z.string({ error: PROFILE_MESSAGES.notAnImage }),
  showLogo: z.optional(z.boolean({ error: 'showLogo must be true or false' })),
});

/** The agent's profile as GET /api/agents/profile and every profile change answer it. */
export const profileAnswerSchema = z.object({
  success: z.literal(true),
  // The Agent entity the public page answers too (its id aside); the title here is one of the three.
  // pending_email: a new address waiting for its link to be followed (it is not the e-mail yet).
  profile: z.extend(z.omit(publicAgentSchema.shape.agent, { id: true }), {
    professional_title: z.nullable(z.enum(PROFESSIONAL_TITLES)),
    pending_email: z.nullable(z.string()),
  }),
});

export type Profile = z.infer<typeof profileAnswerSchema>['profile'];

/**
 * PUT /api/agents/profile's answer: the profile, and the new address a link was e-mailed to when the
 * save asked for another e-mail (null otherwise). It is the same whether or not another account has
 * that address.
 */
export const profileSaveAnswerSchema = z.extend(profileAnswerSchema, {
  email_change_sent_to: z.nullable(z.string()),
});

/** The screen's message after a save that asked for a new e-mail address. */
export const emailChangeSentMessage = (email: string): string =>
  `Profile updated. We sent a link to ${email}: your email changes when you follow it.`;
