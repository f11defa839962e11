/**
 * The Follow Up Boss card's contract, shared by the screen and the server: what a save sends, what
 * the card is shown, and the spec's messages.
 */
import * as z from 'zod/mini';

export const FUB_MESSAGES = {
  saved: 'Follow Up Boss integration settings saved successfully!',
  saveFailed: 'Failed to save integration settings',
  saveError: 'An error occurred while saving integration settings',
  disconnected: 'Follow Up Boss disconnected. New leads are no longer sent to it.',
  unreachable: 'Could not reach Follow Up Boss to check the API key. Please try again in a minute.',
  // Follow Up Boss's own words (401: "Authentication is required. Use Basic HTTP Authentication…")
  // are for developers; they go to the server log, and the agent reads these (audit minor 13).
  keyRefused: 'Follow Up Boss did not accept this API key. Copy it again from Admin → API in Follow Up Boss.',
  keyRejected:
    'Follow Up Boss could not check this API key. Copy it again from Admin → API in Follow Up Boss, and check the system name and key if you set them.',
} as const;

const text = (max: number, label: string) =>
  z.string(`${label} must be text`).check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`));
/** Sent as an HTTP header's value (X-System, X-System-Key): printable ASCII only. */
const headerText = (max: number, label: string) =>
  text(max, label).check(z.regex(/^[\x20-\x7e]*$/, `${label} may use only letters, digits, spaces and punctuation`));
const optional = (schema: z.ZodMiniString) =>
  z.pipe(
    z.optional(schema),
    z.transform((value) => (value ? value : undefined)),
  );

/**
 * A save. Empty optional values are left out by the form (the spec), and left as they are here: a
 * stored key is kept unless a new one is sent. `active` is always sent.
 */
export const fubSaveSchema = z.object({
  api_key: optional(text(200, 'API key')),
  system: optional(headerText(100, 'System name')),
  system_key: optional(headerText(200, 'System key')),
  active: z.boolean('Choose whether the integration is active'),
});
export type FubSave = z.input<typeof fubSaveSchema>;

/** What the card shows: never a key, only its mask. */
export const fubIntegrationSchema = z.object({
  connected: z.boolean(),
  api_key_masked: z.string(),
  system: z.nullable(z.string()),
  system_key_masked: z.string(),
  active: z.boolean(),
  /** Whose Follow Up Boss account the key belongs to (GET /v1/identity when it was saved). */
  account: z.nullable(
    z.object({
      name: z.nullable(z.string()),
      domain: z.nullable(z.string()),
      user_name: z.nullable(z.string()),
      user_email: z.nullable(z.string()),
    }),
  ),
  /** Why syncing stopped (Follow Up Boss refused the key), until a working key is saved. */
  attention: z.nullable(z.string()),
  /** The agent's leads by sync state. */
  leads: z.object({
    synced: z.number(),
    waiting: z.number(),
    stopped: z.number(),
    ignored: z.number(),
    rejected: z.number(),
  }),
});
export type FubIntegration = z.infer<typeof fubIntegrationSchema>;

/** What GET answers: the integration as the card shows it. */
export const fubAnswerSchema = z.object({ success: z.literal(true), integration: fubIntegrationSchema });
/** What a save or a disconnect answers: the card as it now is, and what to say. */
export const fubChangeSchema = z.extend(fubAnswerSchema, { message: z.string() });

/** Sync controls show only for an active integration with a key (the spec). */
export const canSync = (integration: FubIntegration | undefined): boolean =>
  integration !== undefined && integration.active && integration.connected;
