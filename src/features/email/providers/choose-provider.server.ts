/**
 * Which provider sends: Mailgun when the admin's Mailgun settings are complete (domain, key, sender
 * name and address; the sender then comes from those settings), else Resend when RESEND_API_KEY is
 * set, else the outbox. Decided at send time, from the database, so an admin's change takes effect
 * without a restart: `settingsAwareProvider` is one EmailProvider that picks per send, reading the
 * settings at most once every few seconds.
 */
import type { Queryable } from '../../../platform/db.ts';
import type { Env } from '../../../platform/env.ts';
import { secretFrom } from '../../../platform/secrets.ts';
import {
  completeMailgunSettings,
  decryptMailgunSettings,
  isMailgunComplete,
  loadMailgunSettings,
  type CompleteMailgunSettings,
} from '../email-settings.server.ts';
import type { SecretSource } from '../../../platform/encryption.ts';
import { ProviderError, type EmailAddress, type EmailProvider } from '../public/email.server.ts';
import { createMailgunProvider } from './mailgun.server.ts';
import { createResendProvider } from './resend.server.ts';

export type ProviderChoice =
  { kind: 'mailgun'; settings: CompleteMailgunSettings } | { kind: 'resend'; apiKey: string } | { kind: 'outbox' };

/** ENCRYPTION_KEY from the environment (generated once under DATA_DIR/secrets locally). */
const encryptionKeyOf =
  (env: Env): (() => string) =>
  () =>
    secretFrom(env, 'ENCRYPTION_KEY');

/**
 * The provider the settings call for now. One round trip; the Mailgun key is decrypted only when
 * the settings are otherwise complete (an EncryptionError then means ENCRYPTION_KEY changed).
 */
export async function chooseProvider(
  db: Queryable,
  env: Env,
  secret: SecretSource = encryptionKeyOf(env),
): Promise<ProviderChoice> {
  const stored = await loadMailgunSettings(db);
  if (isMailgunComplete(stored)) {
    const settings = completeMailgunSettings(decryptMailgunSettings(stored, secret));
    if (settings) return { kind: 'mailgun', settings };
  }
  if (env.RESEND_API_KEY) return { kind: 'resend', apiKey: env.RESEND_API_KEY };
  return { kind: 'outbox' };
}

export interface SettingsAwareOptions {
  /** How long one reading of the settings serves. Default 5 s; 0 reads them for every send. */
  cacheMs?: number;
  /** Per-request time limit of the Resend and Mailgun clients. */
  timeoutMs?: number;
  /** ENCRYPTION_KEY; default secretFrom(env, 'ENCRYPTION_KEY'), looked up only when needed. */
  encryptionKey?: SecretSource;
  /** The clock (tests). */
  now?: () => number;
}

export interface SettingsAwareProvider extends EmailProvider {
  /** The provider of the latest send ('outbox' before any): what deliverQueued records. */
  readonly name: string;
  /** Forgets the cached choice, so the next send reads the settings again (after a save). */
  refresh(): void;
}

interface Chosen {
  provider: EmailProvider;
  /** The sender Mailgun's settings name; other providers keep the configured one. */
  from?: EmailAddress;
}

export const SETTINGS_CACHE_MS = 5_000;

/**
 * One EmailProvider for the app that sends through whichever provider `chooseProvider` picks at
 * the time of the send, falling back to `outbox`. Concurrent sends share one reading of the
 * settings. If the settings cannot be read (database down, key undecryptable) the send fails with
 * a retryable error, so the delivery is tried again later rather than sent by the wrong provider.
 *
 * The name recorded for a batch is that of the provider chosen for its sends; one choice serves
 * every send of a batch unless the settings change in the middle of it.
 */
export function settingsAwareProvider(
  db: Queryable,
  env: Env,
  outbox: EmailProvider,
  {
    cacheMs = SETTINGS_CACHE_MS,
    timeoutMs,
    encryptionKey = encryptionKeyOf(env),
    now = Date.now,
  }: SettingsAwareOptions = {},
): SettingsAwareProvider {
  let cached: { at: number; chosen: Chosen } | undefined;
  let reading: Promise<Chosen> | undefined;
  let latest = outbox.name;
  const http = timeoutMs === undefined ? {} : { timeoutMs };

  const build = (choice: ProviderChoice): Chosen => {
    switch (choice.kind) {
      case 'mailgun':
        return {
          provider: createMailgunProvider({
            baseUrl: env.MAILGUN_API_URL,
            domain: choice.settings.domain,
            apiKey: choice.settings.apiKey,
            ...http,
          }),
          from: { name: choice.settings.fromName, email: choice.settings.fromEmail },
        };
      case 'resend':
        return { provider: createResendProvider({ baseUrl: env.RESEND_API_URL, apiKey: choice.apiKey, ...http }) };
      case 'outbox':
        return { provider: outbox };
    }
  };

  // Raised by refresh(): a reading begun before it may serve its own sends but not fill the cache.
  let generation = 0;

  const current = (): Promise<Chosen> => {
    if (cached && now() - cached.at < cacheMs) return Promise.resolve(cached.chosen);
    if (reading) return reading;
    const started = generation;
    const pending: Promise<Chosen> = chooseProvider(db, env, encryptionKey)
      .then((choice) => {
        const chosen = build(choice);
        if (started === generation) cached = { at: now(), chosen };
        return chosen;
      })
      .finally(() => {
        if (reading === pending) reading = undefined;
      });
    reading = pending;
    return pending;
  };

  return {
    get name() {
      return latest;
    },
    refresh() {
      cached = undefined;
      reading = undefined;
      generation += 1;
    },
    async send(message) {
      let chosen: Chosen;
      try {
        chosen = await current();
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new ProviderError(`The e-mail settings could not be read: ${reason}`, { retryable: true, cause: error });
      }
      latest = chosen.provider.name;
      return chosen.provider.send(chosen.from ? { ...message, from: chosen.from } : message);
    },
  };
}
