/**
 * Password hashing with scrypt (node:crypto). The stored string records its parameters, so they can
 * be raised later and old hashes upgraded at the next login (see needsRehash):
 *
 *   scrypt$N$r$p$salt$hash      salt (16 random bytes) and hash (32 bytes) in base64url
 *
 * N = 2^15, r = 8, p = 1 takes about 80 ms (32 MiB) on the development machine: slow enough to make
 * guessing expensive, fast enough for a login. Hashing runs on libuv's thread pool, never on the
 * event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { MAX_PASSWORD_LENGTH } from './auth-schemas.ts';

export interface ScryptParams {
  /** CPU and memory cost, a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

export const CURRENT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Parameters above these are refused when read back (a tampered row must not exhaust memory). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

interface StoredHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, { N, r, p }: ScryptParams, keyLength: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node refuses above maxmem (32 MiB by default), so allow twice that.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r * p };
  return new Promise((resolve, reject) => {
    // NFC: the same password typed on two keyboards (composed or decomposed accents) is one password.
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const isPowerOfTwo = (value: number) => Number.isInteger(value) && value > 1 && (value & (value - 1)) === 0;

/** The parts of a stored hash, or undefined when it is not one of ours (or is out of bounds). */
export function parseStoredHash(stored: string): StoredHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, nText = '', rText = '', pText = '', saltText = '', hashText = ''] = parts;
  const [N, r, p] = [nText, rText, pText].map((text) => (/^\d{1,8}$/.test(text) ? Number(text) : NaN));
  if (N === undefined || r === undefined || p === undefined) return undefined;
  if (!isPowerOfTwo(N) || N > MAX_N || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return undefined;
  if (!/^[A-Za-z0-9_-]+$/.test(saltText) || !/^[A-Za-z0-9_-]+$/.test(hashText)) return undefined;
  const salt = Buffer.from(saltText, 'base64url');
  const hash = Buffer.from(hashText, 'base64url');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return undefined;
  return { N, r, p, salt, hash };
}

/** A new stored hash of `password` with a fresh salt and the current parameters. */
export async function hashPassword(password: string, params: ScryptParams = CURRENT_PARAMS): Promise<string> {
  if (password.length > MAX_PASSWORD_LENGTH) throw new Error('hashPassword: password longer than the limit');
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params, KEY_BYTES);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** A hash of nothing anyone knows, computed once, to spend the same time when there is no account. */
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword(randomBytes(24).toString('base64url')));

/**
 * Whether `password` matches `stored`. Always runs one scrypt of the current cost, also when there
 * is no account (`stored` null) or the stored value is not a hash of ours, so the answer takes the
 * same time either way (no account enumeration by timing). Compared in constant time.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const parsed = stored ? parseStoredHash(stored) : undefined;
  const target = parsed ?? parseStoredHash(await decoyHash());
  if (!target) throw new Error('verifyPassword: the decoy hash does not parse');
  const actual = await derive(password, target.salt, target, target.hash.length);
  return timingSafeEqual(actual, target.hash) && parsed !== undefined;
}

/** Whether a stored hash was made with weaker parameters (or another format) than the current ones. */
export function needsRehash(stored: string, current: ScryptParams = CURRENT_PARAMS): boolean {
  const parsed = parseStoredHash(stored);
  if (!parsed) return true;
  return (
    parsed.N < current.N ||
    parsed.r < current.r ||
    parsed.p < current.p ||
    parsed.hash.length < KEY_BYTES ||
    parsed.salt.length < SALT_BYTES
  );
}
