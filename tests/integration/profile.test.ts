/**
 * The agent's own profile over HTTP on both backends: GET and PUT /api/agents/profile, the photo
 * and logo upload routes, what the public agent answer then shows, and that a session reads and
 * changes only its own agent (there is no id in these routes to guess).
 */
import * as z from 'zod';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { profileAnswerSchema, profileSaveAnswerSchema } from '../../src/features/agents/profile.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, SESSION_COOKIE, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';
import { blobOf, dataUrl, formOf, imageCount, png, profileFields, putProfile } from '../support/images.ts';
import { publicAgentResponse } from '../support/schemas.ts';

const answer = z.strictObject(profileAnswerSchema.shape);
const saveAnswer = z.strictObject(profileSaveAnswerSchema.shape);

describe.each(BACKENDS)('the agent profile on %s', (backend) => {
  const suite = useAuthSuite(backend, 'profile');

  async function signedIn(
    agent: Parameters<typeof createAgent>[1] = {},
  ): Promise<{ id: number; slug: string; client: Client }> {
    const row = await createAgent(suite.db, agent);
    return { ...row, client: await clientAs(suite, row.id) };
  }

  const publicAgent = async (slug: string) =>
    expectJson(await suite.client().get(`/api/agents/public/${slug}`), 200, publicAgentResponse);

  it('GET answers every profile field of the signed-in agent in one round trip', async () => {
    const { client, slug } = await signedIn({ first_name: 'Morgan', professional_title: null });
    const before = suite.db.roundTrips;
    const { profile } = await expectJson(await client.get('/api/agents/profile'), 200, answer);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(profile).toMatchObject({
      first_name: 'Morgan',
      slug,
      professional_title: null,
      phone: '5165550100',
      show_profile_photo: false,
      show_logo: false,
      profile_photo: null,
      logo: null,
    });
  });

  it('PUT saves the profile normalised, answers it, and the calculator page is no longer Coming Soon', async () => {
    const { client, slug } = await signedIn({ professional_title: null, brokerage: null });
    expect((await publicAgent(slug)).profile_complete).toBe(false);
    const fields = profileFields({ email: 'Dana.Whitfield.PUT@Example.com' });
    const saved = await expectJson(await putProfile(suite, client, formOf(fields)), 200, saveAnswer);
    // The new address waits for its link (tests/integration/email-change.test.ts); the e-mail stays.
    expect(saved.email_change_sent_to).toBe('dana.whitfield.put@example.com');
    const { profile } = saved;
    expect(profile).toEqual({
      first_name: 'Dana',
      last_name: 'Whitfield',
      email: `${slug}@example.com`,
      pending_email: 'dana.whitfield.put@example.com',
      phone: '6315550142',
      slug,
      brokerage: 'Harbor Point Realty (demo)',
      license_number: '10401234567',
      website: 'https://danawhitfield.example.com',
      professional_title: 'Licensed Real Estate Salesperson',
      brokerage_street: '12 Main Street',
      brokerage_city: 'Northport',
      brokerage_state: 'NY',
      brokerage_zip: '11768',
      show_profile_photo: true,
      show_logo: false,
      profile_photo: null,
      logo: null,
    });
    expect((await expectJson(await client.get('/api/agents/profile'), 200, answer)).profile).toEqual(profile);
    const page = await publicAgent(slug);
    expect(page.profile_complete).toBe(true);
    expect(page.agent).toMatchObject({
      first_name: 'Dana',
      brokerage: 'Harbor Point Realty (demo)',
      license_number: '10401234567',
    });
    // The header's name comes from /api/auth/me.
    const me = await client.get('/api/auth/me');
    expect(await me.json()).toMatchObject({ agent: { first_name: 'Dana', email: `${slug}@example.com` } });
  });

  it('PUT refuses bad fields with the field named, and changes nothing', async () => {
    const { client, id } = await signedIn();
    const cases: [Record<string, string>, string, string][] = [
      [{ first_name: '  ' }, 'first_name', 'First name is required'],
      [{ last_name: 'x'.repeat(101) }, 'last_name', 'Last name must be at most 100 characters'],
      [{ email: 'not-an-email' }, 'email', 'Email is invalid'],
      [{ professional_title: 'Supreme Realtor' }, 'professional_title', 'Please choose your professional title'],
      [{ phone: '555-0142' }, 'phone', 'Phone number is invalid'],
      [{ website: 'javascript:alert(1)' }, 'website', 'Website must be a web address such as https://example.com'],
      [{ brokerage_state: 'New York' }, 'brokerage_state', 'State must be at most 2 characters'],
      [{ brokerage_state: '1Y' }, 'brokerage_state', 'State must be 2 letters, such as NY'],
      [{ brokerage_zip: '1176' }, 'brokerage_zip', 'ZIP must be 5 digits'],
      [{ show_logo: 'yes' }, 'show_logo', 'Show logo must be true or false'],
      [{ brokerage: 'b'.repeat(201) }, 'brokerage', 'Brokerage must be at most 200 characters'],
    ];
    for (const [override, field, message] of cases) {
      await expectFieldError(await putProfile(suite, client, formOf(profileFields(override))), field, message);
    }
    const missing = profileFields();
    delete missing.email;
    await expectFieldError(await putProfile(suite, client, formOf(missing)), 'email', 'Email is required');
    // JSON is not the form's encoding.
    await expectError(
      await client.request('/api/agents/profile', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', origin: suite.api.origin },
        body: JSON.stringify(profileFields()),
      }),
      415,
    );
    const [row] = await suite.db.query<{ first_name: string }>('SELECT first_name FROM agents WHERE id = $1', [id]);
    expect(row?.first_name).toBe('Jamie');
  });

  it("PUT with another agent's e-mail (any case) saves the rest and leaves both addresses as they were", async () => {
    const other = await createAgent(suite.db, { email: 'taken.address@example.com' });
    const { client, id, slug } = await signedIn();
    const form = formOf({
      ...profileFields({ email: 'Taken.Address@example.com' }),
      profile_photo: blobOf(await png(40, 40, '#aa3300')),
    });
    const saved = await expectJson(await putProfile(suite, client, form), 200, saveAnswer);
    expect(saved.profile).toMatchObject({ email: `${slug}@example.com`, pending_email: 'taken.address@example.com' });
    const rows = await suite.db.query<{ id: number; first_name: string; email: string }>(
      'SELECT id, first_name, email FROM agents WHERE id = ANY($1) ORDER BY id',
      [[other.id, id]],
    );
    expect(rows.map((row) => row.email)).toEqual(['taken.address@example.com', `${slug}@example.com`]);
    expect(rows[1]?.first_name).toBe('Dana');
  });

  it('PUT with a photo and a logo file stores both, re-encoded, in one round trip', async () => {
    const { client, slug } = await signedIn();
    const form = formOf({
      ...profileFields({ email: `${slug}@example.com` }),
      profile_photo: blobOf(await png(300, 300, '#336699')),
      logo: blobOf(await png(200, 80, '#ffffff')),
    });
    const before = suite.db.roundTrips;
    const { profile } = await expectJson(await putProfile(suite, client, form), 200, saveAnswer);
    expect(suite.db.roundTrips - before).toBe(1);
    expect(profile.profile_photo).toMatch(/^\/api\/images\/[0-9a-f]{64}\.jpg$/);
    expect(profile.logo).toMatch(/^\/api\/images\/[0-9a-f]{64}\.png$/);
    const photo = await suite.client().get(profile.profile_photo ?? '');
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect(await sharp(Buffer.from(await photo.arrayBuffer())).metadata()).toMatchObject({
      format: 'jpeg',
      width: 300,
    });
  });

  it('a photo upload is stored as a JPEG without its EXIF; its toggle decides whether the public page gets it', async () => {
    const { client, slug } = await signedIn();
    const withExif = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#884422' } })
      .withExif({ IFD0: { Copyright: 'secret-owner-note', Artist: 'gps-here' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const before = suite.db.roundTrips;
    const uploaded = await expectJson(
      await client.post('/api/upload/profile-photo', {
        imageData: dataUrl(withExif, 'image/jpeg'),
        showProfilePhoto: false,
      }),
      200,
      answer,
    );
    expect(suite.db.roundTrips - before).toBe(1);
    const url = uploaded.profile.profile_photo ?? '';
    expect(url).toMatch(/^\/api\/images\/[0-9a-f]{64}\.jpg$/);
    expect(uploaded.profile.show_profile_photo).toBe(false);
    const served = Buffer.from(await (await suite.client().get(url)).arrayBuffer());
    const metadata = await sharp(served).metadata();
    expect(metadata.format).toBe('jpeg');
    expect(metadata.exif).toBeUndefined();
    expect(served.includes('secret-owner-note')).toBe(false);
    // Hidden: the public answer does not give the photo away.
    expect((await publicAgent(slug)).agent).toMatchObject({ show_profile_photo: false, profile_photo: null });
    await expectJson(
      await client.post('/api/upload/profile-photo', {
        imageData: dataUrl(withExif, 'image/jpeg'),
        showProfilePhoto: true,
      }),
      200,
      answer,
    );
    expect((await publicAgent(slug)).agent).toMatchObject({ show_profile_photo: true, profile_photo: url });
    // Deleted: gone from the profile and the page.
    const deleted = await expectJson(
      await client.request('/api/upload/profile-photo', { method: 'DELETE', headers: { origin: suite.api.origin } }),
      200,
      answer,
    );
    expect(deleted.profile).toMatchObject({ profile_photo: null, show_profile_photo: false });
    expect((await publicAgent(slug)).agent).toMatchObject({ profile_photo: null });
  });

  it('a logo upload is stored as a PNG, shown when its toggle is on, and deleted', async () => {
    const { client, slug } = await signedIn();
    const uploaded = await expectJson(
      await client.post('/api/upload/logo', { imageData: dataUrl(await png(240, 60)), showLogo: true }),
      200,
      answer,
    );
    expect(uploaded.profile.show_logo).toBe(true);
    expect(uploaded.profile.logo).toMatch(/^\/api\/images\/[0-9a-f]{64}\.png$/);
    expect((await publicAgent(slug)).agent.logo).toBe(uploaded.profile.logo);
    const deleted = await expectJson(
      await client.request('/api/upload/logo', { method: 'DELETE', headers: { origin: suite.api.origin } }),
      200,
      answer,
    );
    expect(deleted.profile).toMatchObject({ logo: null, show_logo: false });
  });

  it("agent B's session changes only B: A's profile, photo and logo stay as they were", async () => {
    const a = await signedIn({ first_name: 'Avery' });
    const b = await signedIn({ first_name: 'Blake' });
    await expectJson(
      await a.client.post('/api/upload/logo', { imageData: dataUrl(await png(50, 50, '#00aa00')), showLogo: true }),
      200,
      answer,
    );
    const aBefore = (await expectJson(await a.client.get('/api/agents/profile'), 200, answer)).profile;
    // B reads: B's own profile, whatever B sends.
    expect(
      (await expectJson(await b.client.get('/api/agents/profile?id=' + String(a.id)), 200, answer)).profile.slug,
    ).toBe(b.slug);
    await expectJson(
      await putProfile(
        suite,
        b.client,
        formOf({ ...profileFields({ first_name: 'Changed' }), id: String(a.id), slug: a.slug }),
      ),
      200,
      saveAnswer,
    );
    await expectJson(
      await b.client.post('/api/upload/logo', {
        imageData: dataUrl(await png(50, 50, '#0000aa')),
        showLogo: false,
        agentId: a.id,
      }),
      200,
      answer,
    );
    await expectJson(
      await b.client.request('/api/upload/logo', { method: 'DELETE', headers: { origin: suite.api.origin } }),
      200,
      answer,
    );
    expect((await expectJson(await a.client.get('/api/agents/profile'), 200, answer)).profile).toEqual(aBefore);
    const bAfter = (await expectJson(await b.client.get('/api/agents/profile'), 200, answer)).profile;
    expect(bAfter).toMatchObject({ first_name: 'Changed', slug: b.slug, logo: null });
  });

  it('an admin gets and changes their own profile, no one else’s', async () => {
    const admin = await signedIn({ first_name: 'Adrian' });
    await suite.db.query('UPDATE agents SET is_admin = true WHERE id = $1', [admin.id]);
    const other = await signedIn({ first_name: 'Olive' });
    expect((await expectJson(await admin.client.get('/api/agents/profile'), 200, answer)).profile.slug).toBe(
      admin.slug,
    );
    await expectJson(
      await putProfile(suite, admin.client, formOf(profileFields({ first_name: 'Adriana' }))),
      200,
      saveAnswer,
    );
    expect((await expectJson(await other.client.get('/api/agents/profile'), 200, answer)).profile.first_name).toBe(
      'Olive',
    );
  });

  it('a change sent from another site with the session cookie is refused and changes nothing (CSRF)', async () => {
    const { client, id } = await signedIn();
    const images = await imageCount(suite.db);
    const headers = { origin: 'https://evil.example', cookie: `${SESSION_COOKIE}=${client.session ?? ''}` };
    const put = await suite.api.fetch('/api/agents/profile', {
      method: 'PUT',
      headers,
      body: formOf({ ...profileFields({ first_name: 'Mallory' }), logo: blobOf(await png()) }),
    });
    await expectError(put, 403, 'Cross-site request refused');
    const upload = await client.post(
      '/api/upload/logo',
      { imageData: dataUrl(await png()) },
      { origin: 'https://evil.example' },
    );
    await expectError(upload, 403, 'Cross-site request refused');
    const remove = await client.request('/api/upload/profile-photo', {
      method: 'DELETE',
      headers: { origin: 'https://evil.example' },
    });
    await expectError(remove, 403, 'Cross-site request refused');
    const [row] = await suite.db.query<{ first_name: string }>('SELECT first_name FROM agents WHERE id = $1', [id]);
    expect(row?.first_name).toBe('Jamie');
    expect(await imageCount(suite.db)).toBe(images);
  });

  it('signed out, or with a session that ended, nothing is read or stored (401)', async () => {
    const { client, id } = await signedIn();
    const images = await imageCount(suite.db);
    await suite.db.query('UPDATE agents SET session_version = session_version + 1 WHERE id = $1', [id]);
    await expectError(await client.get('/api/agents/profile'), 401, 'Please log in');
    await expectError(
      await client.post('/api/upload/logo', { imageData: dataUrl(await png()), showLogo: true }),
      401,
      'Please log in',
    );
    await expectError(
      await putProfile(suite, client, formOf({ ...profileFields(), logo: blobOf(await png()) })),
      401,
      'Please log in',
    );
    await expectError(await putProfile(suite, suite.client(), formOf(profileFields())), 401, 'Please log in');
    expect(await imageCount(suite.db)).toBe(images);
  });
});
