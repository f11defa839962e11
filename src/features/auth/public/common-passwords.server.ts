/**
 * The check of a new password against what attackers try first (NIST SP 800-63B-4 §3.1.1.2: a
 * blocklist of common, expected or compromised values, the reason given; decision 0047). Server-only:
 * the list (about 100 KB) never reaches a browser. The whole password is compared, never substrings.
 */
import list from '../common-passwords.data.json' with { type: 'json' };

/**
 * Built on the first check, not at load: the API function's cold start, for the many requests that
 * never set a password, does not pay for a Set of the whole list.
 */
let common: ReadonlySet<string> | undefined;
const commonPasswords = (): ReadonlySet<string> => (common ??= new Set(list.passwords));

export const COMMON_PASSWORD_MESSAGE =
  'This password is on the list of common passwords that attackers try first. Choose another: a few unrelated words make a strong one.';
export const PREDICTABLE_PASSWORD_MESSAGE =
  'This password is a run or a repeat of the same few characters, which attackers try first. Choose another: a few unrelated words make a strong one.';
export const PERSONAL_PASSWORD_MESSAGE =
  'This password is made of your name, e-mail address or page address, which attackers try first. Choose another: a few unrelated words make a strong one.';

/** Letters and digits only, lowercase: "Dana.Smith-1" and "danasmith1" are one guess. */
const core = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

const RUNS = ['abcdefghijklmnopqrstuvwxyz', '01234567890123456789012345678901', 'qwertyuiopasdfghjklzxcvbnm'];
const isRun = (text: string) => RUNS.some((run) => run.includes(text) || [...run].reverse().join('').includes(text));

/** One unit of up to 8 characters said again and again: "aaaaaaaaaaaaaaa", "passwordpassword". */
const isRepeat = (text: string) => /^(.{1,8}?)\1+$/su.test(text);

export interface PasswordOwner {
  email: string;
  first_name: string;
  last_name: string;
  slug: string;
}

/** The words of the account a guesser knows: its names, e-mail address and page address. */
function ownerWords({ email, first_name, last_name, slug }: PasswordOwner): Set<string> {
  const [local = '', domain = ''] = email.split('@');
  const first = core(first_name);
  const last = core(last_name);
  return new Set(
    [core(email), core(local), core(domain), first, last, first + last, last + first, core(slug)].filter(
      (word) => word.length >= 3,
    ),
  );
}

/**
 * Why a new password would be refused, or undefined when it may be used. A listed password, a run
 * ("abcdefghijklmnop") or repeat of a few characters, or the owner's own words (with digits added
 * at the end, the usual disguise) are refused; nothing else is asked of it (no composition rules).
 */
export function weakPasswordProblem(password: string, owner?: PasswordOwner): string | undefined {
  const whole = password.normalize('NFKC').toLowerCase();
  const listed = commonPasswords();
  if (listed.has(whole) || listed.has(whole.replace(/\s+/g, ''))) return COMMON_PASSWORD_MESSAGE;
  const letters = core(password);
  if (letters.length > 0 && (isRun(letters) || isRepeat(letters))) return PREDICTABLE_PASSWORD_MESSAGE;
  if (owner) {
    const words = ownerWords(owner);
    const withoutDigits = letters.replace(/\d+$/, '');
    if (
      words.has(letters) ||
      words.has(withoutDigits) ||
      (withoutDigits.length > 0 && isRepeatOf(withoutDigits, words))
    )
      return PERSONAL_PASSWORD_MESSAGE;
  }
  return undefined;
}

/** "danadanadana": one of the owner's words said again. */
function isRepeatOf(text: string, words: Set<string>): boolean {
  const unit = /^(.+?)\1+$/su.exec(text)?.[1];
  return unit !== undefined && words.has(unit);
}
