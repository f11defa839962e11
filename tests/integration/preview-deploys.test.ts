/**
 * Decision 0030: a deploy preview or branch deploy reaches no outside provider, whatever keys its
 * database holds. The app's dependencies are composed as a deployed function composes them (the
 * environment Netlify gives it and the deploy context of its invocation), with Mailgun settings and
 * a Resend key configured, against local fakes of Mailgun, Resend and Follow Up Boss. Production,
 * composed from the same environment, does reach them: the difference is the deploy context alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FubEvent } from '../../src/features/crm/fub-client.server.ts';
import { PREVIEW_FUB_MESSAGE } from '../../src/features/crm/preview-fub-client.server.ts';
import { saveMailgunSettings } from '../../src/features/email/email-settings.server.ts';
import type { ProviderMessage } from '../../src/features/email/public/email.server.ts';
import { appDepsFrom } from '../../src/app/compose.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { startFakeFub, type FakeFub } from '../fakes/fub.ts';
import { startFakeMailgun, type FakeMailgun } from '../fakes/mailgun.ts';
import { startFakeResend, type FakeResend } from '../fakes/resend.ts';
import { openTestDatabase, type TestDatabase } from '../support/backends.ts';

const ENCRYPTION_KEY = 'test-encryption-key-for-preview-deploys-0001';

let mailgun: FakeMailgun;
let resend: FakeResend;
let fub: FakeFub;
let suite: TestDatabase;

beforeAll(async () => {
  [mailgun, resend, fub, suite] = await Promise.all([
    startFakeMailgun(),
    startFakeResend(),
    startFakeFub(),
    openTestDatabase('pglite', 'preview-deploys'),
  ]);
  // What production's database holds, and so a preview's copy of it: complete Mailgun settings.
  await saveMailgunSettings(suite.db, ENCRYPTION_KEY, {
    domain: mailgun.domain,
    apiKey: mailgun.apiKey,
    fromName: 'Harbor Point Realty',
    fromEmail: 'homes@mg.example.com',
  });
});
afterAll(async () => {
  await Promise.all([mailgun.close(), resend.close(), fub.close(), suite.close()]);
});

/** A deployed function's environment: Netlify's read-only variables and every provider configured. */
const deployedEnv = (deployContext: string) =>
  parseEnv(
    {
      URL: 'https://example.netlify.app',
      SITE_NAME: 'example',
      SITE_ID: '1d01c0c0-4554-4747-93b8-34ce3448ab95',
      DATABASE_URL: 'postgres://u:p@ep-main.example/db',
      PREVIEW_DATABASE_URL: 'postgres://u:p@ep-preview.example/db',
      SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
      ENCRYPTION_KEY,
      RESEND_API_KEY: resend.apiKey,
      RESEND_API_URL: resend.url,
      MAILGUN_API_URL: mailgun.url,
      FUB_API_URL: fub.url,
      BUILD_HOOK_URL: 'http://127.0.0.1:9/build_hooks/production',
    },
    { deployContext },
  );

const message: ProviderMessage = {
  deliveryId: 1,
  from: { name: 'Long Island Net Proceeds', email: 'estimates@example.com' },
  to: { name: 'Dana Lopez', email: 'dana@example.com' },
  subject: 'Your estimated net proceeds',
  html: '<p>Hello Dana</p>',
  text: 'Hello Dana',
  headers: {},
};

const event: FubEvent = {
  source: 'Long Island Net Proceeds',
  system: 'li-net-to-seller',
  type: 'Seller Inquiry',
  message: 'Preview lead',
  person: { firstName: 'Dana', lastName: 'Lopez', emails: [{ value: 'dana@example.com' }], phones: [], tags: [] },
};
const credentials = () => ({ apiKey: fub.apiKey, system: null, systemKey: null });

describe.each(['deploy-preview', 'branch-deploy'])('a %s', (deployContext) => {
  it('sends e-mail to the outbox only, though Mailgun and Resend are configured', async () => {
    const { email } = appDepsFrom(deployedEnv(deployContext), suite.db);
    const before = [mailgun.requests.length, resend.requests.length];
    await email.provider.send(message);
    expect(email.provider.name).toBe('outbox');
    expect([mailgun.requests.length, resend.requests.length]).toEqual(before);
  });

  it('records a Follow Up Boss sync as not sent, and checks no key, without a request', async () => {
    const { crm } = appDepsFrom(deployedEnv(deployContext), suite.db);
    const before = fub.requests.length;
    expect(await crm.client.sendEvent(credentials(), event)).toEqual({
      kind: 'rejected',
      status: null,
      message: PREVIEW_FUB_MESSAGE,
    });
    expect(await crm.client.identity(credentials())).toEqual({
      ok: false,
      answer: { kind: 'rejected', status: null, message: PREVIEW_FUB_MESSAGE },
    });
    expect(fub.requests).toHaveLength(before);
  });

  it("never calls production's build hook", () => {
    expect(appDepsFrom(deployedEnv(deployContext), suite.db).siteBuilds).toBeUndefined();
  });
});

describe('production, from the same environment', () => {
  it('sends through Mailgun, reaches Follow Up Boss and builds through the hook', async () => {
    const deps = appDepsFrom(deployedEnv('production'), suite.db);
    const [mailgunBefore, fubBefore] = [mailgun.messages.length, fub.requests.length];
    await deps.email.provider.send(message);
    expect(mailgun.messages).toHaveLength(mailgunBefore + 1);
    expect(await deps.crm.client.identity(credentials())).toMatchObject({ ok: true });
    expect(fub.requests.length).toBeGreaterThan(fubBefore);
    expect(deps.siteBuilds).toBeDefined();
  });
});
