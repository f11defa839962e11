import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('has embedded defaults for everything on a developer machine', () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PORT).toBe(4321);
    expect(env.FEATURED_AGENT_SLUG).toBe('alexmorgan');
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(4321);
  });

  it('refuses to start production without a database', () => {
    expect(() => parseEnv({ APP_ENV: 'production' })).toThrow('DATABASE_URL: required in production');
    expect(() => parseEnv({ NETLIFY: 'true' })).toThrow('DATABASE_URL: required in production');
    expect(parseEnv({ NETLIFY: 'true', DATABASE_URL: 'postgres://u:p@h/db' }).DATABASE_URL).toBe('postgres://u:p@h/db');
  });

  it('names each bad variable', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x', FEATURED_AGENT_SLUG: 'Bad Slug' })).toThrow(
      /DATABASE_URL: DATABASE_URL must be a postgres:\/\/ connection string\n {2}FEATURED_AGENT_SLUG/,
    );
  });
});
