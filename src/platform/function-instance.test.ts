import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Env } from './env.ts';
import { perInstance } from './function-instance.ts';

const PRODUCTION_DB = 'postgres://u:p@ep-main.example/db';
const PREVIEW_DB = 'postgres://u:p@ep-preview.example/db';

/** A deployed function's process: Netlify's SITE_ID, every variable set for all deploy contexts. */
function deployed(variables: Record<string, string>): void {
  vi.stubEnv('NETLIFY', '');
  vi.stubEnv('NETLIFY_DEV', '');
  vi.stubEnv('NETLIFY_LOCAL', '');
  vi.stubEnv('APP_ENV', '');
  vi.stubEnv('SITE_ID', '1d01c0c0-4554-4747-93b8-34ce3448ab95');
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('perInstance', () => {
  it("starts once, at the first invocation, with that invocation's deploy context", async () => {
    deployed({
      DATABASE_URL: PRODUCTION_DB,
      PREVIEW_DATABASE_URL: PREVIEW_DB,
      SESSION_SECRET: 's'.repeat(32),
      ENCRYPTION_KEY: 'e'.repeat(32),
    });
    const started: Env[] = [];
    const instance = perInstance((env) => Promise.resolve(started.push(env)));
    await instance({ deploy: { context: 'deploy-preview' } });
    await instance({ deploy: { context: 'deploy-preview' } });
    expect(started.map((env) => env.DATABASE_URL)).toEqual([PREVIEW_DB]);
  });

  it('refuses every invocation of a deployed function that lacks what it needs, saying what and where', async () => {
    deployed({ DATABASE_URL: PRODUCTION_DB });
    const start = vi.fn(() => Promise.resolve('started'));
    const instance = perInstance(start);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(instance({ deploy: { context: 'production' } })).rejects.toThrow(
        /deploy context "production"[\s\S]*SESSION_SECRET: required[\s\S]*ENCRYPTION_KEY: required/,
      );
    }
    expect(start).not.toHaveBeenCalled();
  });
});

describe('perInstance after a failed start', () => {
  it('starts again at the next invocation once a start has failed, and keeps what then started', async () => {
    deployed({ DATABASE_URL: PRODUCTION_DB, SESSION_SECRET: 's'.repeat(32), ENCRYPTION_KEY: 'e'.repeat(32) });
    let calls = 0;
    const instance = perInstance(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('database unreachable')) : Promise.resolve(calls);
    });
    await expect(instance({ deploy: { context: 'production' } })).rejects.toThrow('database unreachable');
    await expect(instance({ deploy: { context: 'production' } })).resolves.toBe(2);
    await expect(instance({ deploy: { context: 'production' } })).resolves.toBe(2);
  });
});
