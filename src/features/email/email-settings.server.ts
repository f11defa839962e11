/**
 * The admin's Mailgun settings: the one row of `email_settings`. The API key is encrypted at rest
 * (src/platform/encryption.ts, bound to its column) and only server code ever sees it decrypted;
 * what a screen may show is `mailgunSettingsView` (the key masked).
 */
import type { Queryable } from '../../platform/db.ts';
import { decrypt, encrypt, maskedKey, resolveSecret, type SecretSource } from '../../platform/encryption.ts';
import { mailgunSettingsInputSchema, type MailgunSettingsInput } from './email-settings.ts';

/** Bound into the ciphertext: a value copied from another encrypted column does not decrypt here. */
export const MAILGUN_KEY_CONTEXT = 'email_settings.mailgun_api_key';

/** The row as stored: the key still encrypted. */
export interface StoredMailgunSettings {
  domain: string | null;
  apiKeyEncrypted: string | null;
  fromName: string | null;
  fromEmail: string | null;
  updatedAt: Date | null;
}

/** The settings with the key decrypted: for server code only, never for a response or a log. */
export interface MailgunSettings {
  domain: string | null;
  apiKey: string | null;
  fromName: string | null;
  fromEmail: string | null;
  updatedAt: Date | null;
}

/** Everything Mailgun needs to send: then, and only then, mail goes through Mailgun. */
export interface CompleteMailgunSettings {
  domain: string;
  apiKey: string;
  fromName: string;
  fromEmail: string;
}

/** What an admin screen may show. */
export interface MailgunSettingsView {
  domain: string | null;
  fromName: string | null;
  fromEmail: string | null;
  hasApiKey: boolean;
  /** e.g. "••••••••3f9a"; '' without a key. */
  apiKeyMasked: string;
  complete: boolean;
  updatedAt: Date | null;
}

interface SettingsRow {
  mailgun_domain: string | null;
  mailgun_api_key_encrypted: string | null;
  mailgun_from_name: string | null;
  mailgun_from_email: string | null;
  updated_at: Date;
}

const EMPTY: StoredMailgunSettings = {
  domain: null,
  apiKeyEncrypted: null,
  fromName: null,
  fromEmail: null,
  updatedAt: null,
};

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

const fromRow = (row: SettingsRow | undefined): StoredMailgunSettings =>
  row
    ? {
        domain: row.mailgun_domain,
        apiKeyEncrypted: row.mailgun_api_key_encrypted,
        fromName: row.mailgun_from_name,
        fromEmail: row.mailgun_from_email,
        updatedAt: row.updated_at,
      }
    : EMPTY;

const SETTINGS_COLUMNS = 'mailgun_domain, mailgun_api_key_encrypted, mailgun_from_name, mailgun_from_email, updated_at';

/** The row as stored (all null when there is none). One round trip; nothing decrypted. */
export async function loadMailgunSettings(db: Queryable): Promise<StoredMailgunSettings> {
  const [row] = await db.query<SettingsRow>(`SELECT ${SETTINGS_COLUMNS} FROM email_settings WHERE id = 1`);
  return fromRow(row);
}

/** Whether every part Mailgun needs is filled in (the key not yet decrypted). */
export const isMailgunComplete = (stored: StoredMailgunSettings): boolean =>
  present(stored.domain) && present(stored.apiKeyEncrypted) && present(stored.fromName) && present(stored.fromEmail);

/** The stored settings with the key decrypted; throws EncryptionError when it cannot be. */
export function decryptMailgunSettings(stored: StoredMailgunSettings, secret: SecretSource): MailgunSettings {
  return {
    domain: stored.domain,
    apiKey: present(stored.apiKeyEncrypted)
      ? decrypt(stored.apiKeyEncrypted, resolveSecret(secret), MAILGUN_KEY_CONTEXT)
      : null,
    fromName: stored.fromName,
    fromEmail: stored.fromEmail,
    updatedAt: stored.updatedAt,
  };
}

/** Complete settings, trimmed, or null when a part is missing. */
export function completeMailgunSettings(settings: MailgunSettings): CompleteMailgunSettings | null {
  const { domain, apiKey, fromName, fromEmail } = settings;
  if (!present(domain) || !present(apiKey) || !present(fromName) || !present(fromEmail)) return null;
  return { domain: domain.trim(), apiKey: apiKey.trim(), fromName: fromName.trim(), fromEmail: fromEmail.trim() };
}

/** The settings for server code, key decrypted. One round trip. */
export async function readMailgunSettings(db: Queryable, secret: SecretSource): Promise<MailgunSettings> {
  return decryptMailgunSettings(await loadMailgunSettings(db), secret);
}

/** What an admin screen may show of the settings: never the key. */
export function mailgunSettingsView(settings: MailgunSettings): MailgunSettingsView {
  return {
    domain: settings.domain,
    fromName: settings.fromName,
    fromEmail: settings.fromEmail,
    hasApiKey: present(settings.apiKey),
    apiKeyMasked: maskedKey(settings.apiKey),
    complete: completeMailgunSettings(settings) !== null,
    updatedAt: settings.updatedAt,
  };
}

/**
 * Saves the settings (one upsert, one round trip), encrypting a new key, and answers what a
 * screen may show of the result. Throws a zod error ($ZodError) for invalid input.
 */
export async function saveMailgunSettings(
  db: Queryable,
  secret: SecretSource,
  input: MailgunSettingsInput,
): Promise<MailgunSettingsView> {
  const settings = mailgunSettingsInputSchema.parse(input);
  const keepKey = settings.apiKey === undefined;
  const encrypted = settings.apiKey ? encrypt(settings.apiKey, resolveSecret(secret), MAILGUN_KEY_CONTEXT) : null;
  const [row] = await db.query<SettingsRow>(
    `INSERT INTO email_settings AS s (id, mailgun_domain, mailgun_api_key_encrypted, mailgun_from_name, mailgun_from_email)
     VALUES (1, $1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE
        SET mailgun_domain = EXCLUDED.mailgun_domain,
            mailgun_api_key_encrypted = CASE WHEN $5::boolean THEN s.mailgun_api_key_encrypted
                                             ELSE EXCLUDED.mailgun_api_key_encrypted END,
            mailgun_from_name = EXCLUDED.mailgun_from_name,
            mailgun_from_email = EXCLUDED.mailgun_from_email,
            updated_at = now()
     RETURNING ${SETTINGS_COLUMNS}`,
    [settings.domain, encrypted, settings.fromName, settings.fromEmail, keepKey],
  );
  const stored = fromRow(row);
  return mailgunSettingsView(decryptMailgunSettings(stored, secret));
}
