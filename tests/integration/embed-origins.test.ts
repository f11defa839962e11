/**
 * GET and PUT /api/agents/me/embed over real HTTP on both backends (issue 26, decision 0058): the
 * sites allowed to embed the agent's calculator, normalized to origins, refused per field with
 * words the agent can act on, each agent's own.
 */
import { describe, expect, it } from 'vitest';
import { embedSettingsSchema, EMBED_SETTINGS_PATH } from '../../src/features/embed/public/embed-origins.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

describe.each(BACKENDS)('the sites allowed to embed the calculator on %s', (backend) => {
  const suite = useAuthSuite(backend, 'embedorigins');
  const newAgent = async () => {
    const agent = await createAgent(suite.db);
    return { agent, client: await clientAs(suite, agent.id) };
  };

  it('answers an empty list and the slug for an agent who has listed none, in one round trip', async () => {
    const { agent, client } = await newAgent();
    const before = suite.db.roundTrips;
    const answer = await expectJson(await client.get(EMBED_SETTINGS_PATH), 200, embedSettingsSchema);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(answer).toEqual({ success: true, origins: [], slug: agent.slug });
  });

  it('saves the list as origins (scheme added, case folded, default port and slash dropped, once each)', async () => {
    const { client } = await newAgent();
    const origins = [
      'www.Example.com',
      'https://www.example.com/',
      'https://homes.example.org:443',
      'http://127.0.0.1:8123',
      ' https://staging.example.net:8443 ',
    ];
    const saved = await expectJson(
      await client.send('PUT', EMBED_SETTINGS_PATH, { origins }),
      200,
      embedSettingsSchema,
    );
    const expected = [
      'https://www.example.com',
      'https://homes.example.org',
      'http://127.0.0.1:8123',
      'https://staging.example.net:8443',
    ];
    expect(saved.origins).toEqual(expected);
    expect(saved.message).toBe('Saved. These 4 sites may show your calculator.');
    const read = await expectJson(await client.get(EMBED_SETTINGS_PATH), 200, embedSettingsSchema);
    expect(read.origins).toEqual(expected);
    // An empty list takes every site off.
    const cleared = await expectJson(
      await client.send('PUT', EMBED_SETTINGS_PATH, { origins: [] }),
      200,
      embedSettingsSchema,
    );
    expect(cleared).toMatchObject({ origins: [], message: 'Saved. No other site may show your calculator now.' });
  });

  it.each([
    ['https://example.com/listings', 'Enter the site only, without a page: https://example.com'],
    ['https://example.com/?a=1', 'Enter the site only, without a page: https://example.com'],
    ['ftp://example.com', 'The address must start with https://'],
    ['javascript:alert(1)', 'javascript:alert(1) is not a web address, e.g. https://www.example.com'],
    ['https://user:pw@example.com', 'The address must not hold a user name or password'],
    ['examplecom', "examplecom is not a site's name, e.g. www.example.com"],
    ['   ', 'Enter the address of your site, e.g. https://www.example.com'],
  ])('refuses %j on its own field, keeping the saved list', async (typed, message) => {
    const { client } = await newAgent();
    await client.send('PUT', EMBED_SETTINGS_PATH, { origins: ['https://kept.example.com'] });
    const body = await expectError(
      await client.send('PUT', EMBED_SETTINGS_PATH, { origins: ['https://ok.example.com', typed] }),
      400,
      message,
    );
    expect(body.fields).toEqual({ 'origins.1': message });
    const read = await expectJson(await client.get(EMBED_SETTINGS_PATH), 200, embedSettingsSchema);
    expect(read.origins).toEqual(['https://kept.example.com']);
  });

  it('refuses more than ten sites and a body without a list', async () => {
    const { client } = await newAgent();
    const eleven = Array.from({ length: 11 }, (_, index) => `https://site${index}.example.com`);
    await expectError(await client.send('PUT', EMBED_SETTINGS_PATH, { origins: eleven }), 400, 'List at most 10 sites');
    await expectError(await client.send('PUT', EMBED_SETTINGS_PATH, {}), 400, 'origins must be a list of addresses');
  });

  it("saves the caller's own list only, and asks a signed-out caller to sign in", async () => {
    const a = await newAgent();
    const b = await newAgent();
    await a.client.send('PUT', EMBED_SETTINGS_PATH, { origins: ['https://a.example.com'] });
    const readB = await expectJson(await b.client.get(EMBED_SETTINGS_PATH), 200, embedSettingsSchema);
    expect(readB.origins).toEqual([]);
    await expectError(await suite.client().send('PUT', EMBED_SETTINGS_PATH, { origins: [] }), 401);
  });
});
