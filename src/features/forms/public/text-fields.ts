/** The text fields every form of the product has, with friendly messages (zod schemas shared by forms and routes). */
import * as z from 'zod/mini';

/** Trimmed text, at least one character and at most `max`. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(max, `${label} must be at most ${max} characters`),
    );

/** Trimmed text of at most `max` characters; empty means "not given" (null). */
export const optionalText = (label: string, max: number) =>
  z.pipe(
    z.nullish(
      z
        .string({ error: `${label} must be text` })
        .check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`)),
    ),
    z.transform((value) => (value ? value : null)),
  );

// A dot as a mail client or browser reads one in a host name (ASCII and the ideographic/full-width ones).
const DOT = '[.\u3002\uFF0E\uFF61]';

/** Web addresses: with a scheme, `www.`, a bare host (`phish.example/login`), an IPv4 address. */
const WEB_ADDRESS = [
  // A scheme's last character before "://". Not the whole scheme (`[a-z][a-z\d+.-]*:\/\/`): tried from
  // every letter of a long run, that took time in the square of its length, and a fuzzed 1 MB name
  // held the server for minutes. Every pattern here is linear.
  /[a-z\d+.-]:\/\//i,
  /\b(?:mailto|tel|sms|javascript|data|file):/i,
  new RegExp(`\\bwww\\d*${DOT}`, 'iu'),
  // A name, a dot and two letters: "example.com", "phish.example". Initials ("J.R. Smith") and
  // abbreviations ("e.g. repairs", "No. 2") have one letter or none after their dot.
  new RegExp(`[\\p{L}\\p{N}-]${DOT}\\p{L}{2}`, 'u'),
  /\b\d{1,3}(?:\.\d{1,3}){3}\b/,
];
const EMAIL_ADDRESS = /[^\s@]@[^\s@]/;

/** What a mail client or browser would make a link of in `value`, if anything. */
export function linkIn(value: string): 'web' | 'email' | null {
  if (EMAIL_ADDRESS.test(value)) return 'email';
  return WEB_ADDRESS.some((pattern) => pattern.test(value)) ? 'web' : null;
}

/**
 * THE refinement of every short free-text field a stranger can type (estimate, offer and net-sheet
 * labels, names): no web address and no e-mail address. Such text is shown on pages and in files
 * the product serves, and a link there would make the product carry a stranger's phishing
 * (security audit 2026-11-26, finding 2). Ordinary labels ("HELOC – Chase", "Solar lease
 * (SunRun)") pass. Use with `.check(withoutLinks('Lien name'))`.
 */
export const withoutLinks = (label: string) =>
  z.superRefine((value: string | null | undefined, context) => {
    const found = typeof value === 'string' ? linkIn(value) : null;
    if (found)
      context.addIssue({
        code: 'custom',
        message:
          found === 'email' ? `${label} cannot contain an e-mail address` : `${label} cannot contain a web address`,
        input: value,
      });
  });
