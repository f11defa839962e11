/**
 * The admin's e-mail sending settings (Mailgun) as the server stores them and as the settings
 * screen sends and shows them: the schemas both sides parse with, and the spec's messages.
 */
import * as z from 'zod/mini';

export const EMAIL_SETTINGS_MESSAGES = {
  saved: 'Email settings saved successfully!',
  saveFailed: 'Failed to save email settings',
  saveError: 'An error occurred while saving settings',
  loadFailed: 'Failed to load current settings',
  testFailed: 'The test e-mail could not be sent',
} as const;

const optionalText = (max: number, message: string) =>
  z.pipe(
    z.nullish(z.string(message).check(z.trim(), z.maxLength(max, message))),
    z.transform((value) => (value ? value : null)),
  );

/**
 * A save of the settings, as server code calls it. Blank fields clear their setting. `apiKey`
 * left out keeps the stored key (a form shows only its mask); blank or null removes it.
 */
export const mailgunSettingsInputSchema = z.object({
  domain: optionalText(253, 'Enter a domain such as mg.example.com').check(
    z.refine(
      (value) => value === null || /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(value),
      'Enter a domain such as mg.example.com',
    ),
  ),
  apiKey: z.pipe(
    z.optional(
      z.nullable(z.string('Enter the Mailgun API key').check(z.trim(), z.maxLength(200, 'The API key is too long'))),
    ),
    z.transform((value) => (value === undefined ? undefined : value || null)),
  ),
  fromName: optionalText(100, 'Sender name must be at most 100 characters'),
  fromEmail: optionalText(254, 'Please enter a valid email address').check(
    z.refine((value) => value === null || z.email().safeParse(value).success, 'Please enter a valid email address'),
  ),
});
export type MailgunSettingsInput = z.input<typeof mailgunSettingsInputSchema>;

const fields = mailgunSettingsInputSchema.shape;

/**
 * PATCH /api/agents/me/integrations/mailgun: the spec's four fields. The key is write-only: a
 * blank or missing `mailgun_api_key` keeps the stored one (the form shows only its mask).
 */
export const mailgunSaveSchema = z.pipe(
  z.strictObject({
    mailgun_domain: fields.domain,
    mailgun_api_key: z.pipe(
      z.optional(z.string('Enter the Mailgun API key').check(z.trim(), z.maxLength(200, 'The API key is too long'))),
      z.transform((value) => value || undefined),
    ),
    mailgun_from_name: fields.fromName,
    mailgun_from_email: fields.fromEmail,
  }),
  z.transform((save): MailgunSettingsInput => ({
    domain: save.mailgun_domain,
    apiKey: save.mailgun_api_key,
    fromName: save.mailgun_from_name,
    fromEmail: save.mailgun_from_email,
  })),
);
export type MailgunSave = z.input<typeof mailgunSaveSchema>;

/** What the screen is shown: never the key, only its mask. */
export const mailgunViewSchema = z.object({
  mailgun_domain: z.nullable(z.string()),
  mailgun_from_name: z.nullable(z.string()),
  mailgun_from_email: z.nullable(z.string()),
  /** e.g. "••••••••3f9a"; '' without a key. */
  mailgun_api_key_masked: z.string(),
  /** Domain, key, sender name and address all set: then, and only then, mail goes through Mailgun. */
  complete: z.boolean(),
});
export type MailgunView = z.infer<typeof mailgunViewSchema>;

/** POST /api/admin/email/test: which provider sent the test e-mail, and to whom. */
export const testEmailAnswerSchema = z.object({
  success: z.literal(true),
  provider: z.string(),
  to: z.string(),
  message: z.string(),
});
