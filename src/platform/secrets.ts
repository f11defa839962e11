import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isProduction, type Env } from './env.ts';

/**
 * A secret from the environment, or (on a developer's machine only) one generated once and kept
 * under DATA_DIR/secrets so sessions and encrypted settings survive restarts. Production refuses
 * to run without the variable.
 */
export function secretFrom(env: Env, variable: 'SESSION_SECRET' | 'ENCRYPTION_KEY'): string {
  const configured = env[variable];
  if (configured) return configured;
  if (isProduction(env)) throw new Error(`Invalid environment:\n  ${variable}: required in production`);
  const dir = resolve(env.DATA_DIR, 'secrets');
  const file = join(dir, variable.toLowerCase());
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  const generated = randomBytes(32).toString('base64url');
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return generated;
}
