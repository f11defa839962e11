/**
 * The public pages' marketing content over HTTP, on both backends: GET and PUT
 * /api/admin/site-content for admins only, the seeded defaults, a whole replacement per save,
 * refusals field by field that write nothing, and the site marked changed by a save.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readSiteContent } from '../../src/features/content/site-content.server.ts';
import {
  siteContentAnswerSchema,
  siteContentSavedSchema,
  type SiteContent,
} from '../../src/features/content/site-content-schema.ts';
import { expectError, expectFieldError, expectJson } from '../support/api-suite.ts';
import { clientAs, useAuthSuite, type Client } from '../support/auth-suite.ts';
import { BACKENDS } from '../support/backends.ts';
import { createAgent } from '../support/fixtures.ts';

const PATH = '/api/admin/site-content';

const edited: SiteContent = {
  claims: [
    {
      figure: '3%',
      label: 'higher sale price',
      detail: 'Compared with the county median',
      source: 'Source: MLS data, Apr 2025',
    },
    { figure: '40', label: 'homes sold this year', detail: '', source: '' },
  ],
  track_record: [{ figure: '200+', label: 'homes sold' }],
  track_record_source: 'Source: our closed sales, 2020–2025 (MLS)',
  testimonial: { quote: 'Sold in a week.', author: 'A Hicksville seller' },
  disclaimer: 'Figures from our own sales, 2025.',
  counties: {
    nassau: [{ label: 'Population', value: '1.39M' }],
    suffolk: [
      { label: 'Population', value: '1.53M' },
      { label: 'School Districts', value: '69' },
    ],
  },
};

describe.each(BACKENDS)('site content on %s', (backend) => {
  const suite = useAuthSuite(backend, 'sitecontent');
  /** The content of the fresh database, before any test saved: migration 0018's seed. */
  let seeded: SiteContent;
  beforeAll(async () => {
    seeded = await readSiteContent(suite.db);
  });

  const adminClient = async (): Promise<Client> => {
    const agent = await createAgent(suite.db, { is_admin: true });
    return clientAs(suite, agent.id);
  };
  const agentClient = async () => clientAs(suite, (await createAgent(suite.db)).id);
  const put = (client: Client, body: unknown) => client.send('PUT', PATH, body);

  it("starts with the specification's content, each claim with the sample data's source line (minor 34)", () => {
    expect(seeded.claims.map((claim) => `${claim.figure} ${claim.label}`)).toEqual([
      '~2% higher sale price',
      '75% more engagement',
      '15% more profile views',
      '<10% of listings',
    ]);
    expect(seeded.claims.map((claim) => claim.source)).toEqual(
      Array(4).fill('Source: sample marketing data (April 2025) shipped with this site, not its own sales'),
    );
    expect(seeded.track_record[0]).toEqual({ figure: '1,381+', label: 'homes sold' });
    // The shipped track record says where it comes from too (minor 34 follow-up, migration 0029).
    expect(seeded.track_record_source).toBe('Source: sample figures shipped with this site, not its own sales');
    expect(seeded.disclaimer).toMatch(/^Marketing performance data analysed April 2025/);
    expect(seeded.counties.nassau).toContainEqual({ label: 'Median Home Value', value: '$650K' });
    expect(seeded.counties.suffolk).toContainEqual({ label: 'School Districts', value: '70+' });
  });

  const changedAt = async () =>
    (await suite.db.query<{ changed_at: Date }>('SELECT changed_at FROM site_changes'))[0]?.changed_at.getTime();

  it('answers 401 signed out and 403 to an agent, who change nothing and ask for no rebuild', async () => {
    const before = await readSiteContent(suite.db);
    const changedBefore = await changedAt();
    await expectError(await suite.client().get(PATH), 401, 'Please log in');
    await expectError(await put(suite.client(), edited), 401, 'Please log in');
    const agent = await agentClient();
    await expectError(await agent.get(PATH), 403, 'Only admins can change site-wide settings');
    await expectError(await put(agent, edited), 403, 'Only admins can change site-wide settings');
    await expectError(await put(agent, { claims: 'x' }), 403, 'Only admins can change site-wide settings');
    expect(await readSiteContent(suite.db)).toEqual(before);
    expect(await changedAt()).toBe(changedBefore);
  });

  it('saves the whole content for an admin, and GET answers what was saved', async () => {
    const admin = await adminClient();
    const [{ changed_at: before } = { changed_at: new Date(0) }] = await suite.db.query<{ changed_at: Date }>(
      'SELECT changed_at FROM site_changes',
    );
    const saved = await expectJson(await put(admin, edited), 200, siteContentSavedSchema);
    expect(saved).toEqual({
      success: true,
      message: 'Site content saved. The public pages show it after the next rebuild.',
      content: edited,
    });
    expect(await expectJson(await admin.get(PATH), 200, siteContentAnswerSchema)).toEqual({
      success: true,
      content: edited,
    });
    const [changed] = await suite.db.query<{ changed_at: Date }>('SELECT changed_at FROM site_changes');
    expect(changed?.changed_at.getTime()).toBeGreaterThan(before.getTime());

    // Spaces around a text are trimmed; a missing source or detail is none.
    const bare = { figure: '41', label: 'homes sold this year' };
    const trimmed = await expectJson(
      await put(admin, { ...edited, claims: [{ ...bare, figure: '  41  ' }], disclaimer: ' Results vary. ' }),
      200,
      siteContentSavedSchema,
    );
    expect(trimmed.content.claims).toEqual([{ ...bare, figure: '41', detail: '', source: '' }]);
    expect(trimmed.content.disclaimer).toBe('Results vary.');
    // The track record's source is trimmed too; left out, it is none (not shown).
    const sourced = await expectJson(
      await put(admin, { ...edited, track_record_source: '  Source: MLS, 2025  ' }),
      200,
      siteContentSavedSchema,
    );
    expect(sourced.content.track_record_source).toBe('Source: MLS, 2025');
    const none = await expectJson(
      await put(admin, { ...edited, track_record_source: undefined }),
      200,
      siteContentSavedSchema,
    );
    expect(none.content.track_record_source).toBe('');
    expect((await readSiteContent(suite.db)).track_record_source).toBe('');
  });

  it('refuses bad input field by field and writes nothing', async () => {
    const admin = await adminClient();
    await expectJson(await put(admin, edited), 200, siteContentSavedSchema);
    const before = await readSiteContent(suite.db);
    const claim = { figure: '5%', label: 'more', detail: '', source: '' };

    await expectError(await put(admin, '{"claims":'), 400, 'The request body is not valid JSON');
    await expectFieldError(
      await put(admin, { ...edited, claims: Array.from({ length: 7 }, () => claim) }),
      'claims',
      'At most 6 claims',
    );
    await expectFieldError(await put(admin, { ...edited, claims: [] }), 'claims', 'Keep at least one of the claims');
    await expectFieldError(
      await put(admin, { ...edited, track_record: Array.from({ length: 7 }, () => ({ figure: '1', label: 'x' })) }),
      'track_record',
      'At most 6 track record figures',
    );
    await expectFieldError(
      await put(admin, { ...edited, claims: [{ ...claim, figure: '   ' }] }),
      'claims.0.figure',
      'Figure is required',
    );
    await expectFieldError(
      await put(admin, { ...edited, claims: [{ ...claim, source: 's'.repeat(121) }] }),
      'claims.0.source',
      'Source must be at most 120 characters',
    );
    await expectFieldError(
      await put(admin, { ...edited, track_record_source: 's'.repeat(121) }),
      'track_record_source',
      'The track record’s source must be at most 120 characters',
    );
    await expectFieldError(
      await put(admin, { ...edited, claims: [{ ...claim, figure: 42 }] }),
      'claims.0.figure',
      'Figure is required',
    );
    await expectFieldError(
      await put(admin, { ...edited, testimonial: { quote: 'q'.repeat(601), author: 'A' } }),
      'testimonial.quote',
      'Quote must be at most 600 characters',
    );
    await expectFieldError(
      await put(admin, { ...edited, testimonial: 'Great agent' }),
      'testimonial',
      'The testimonial needs a quote and an author',
    );
    await expectFieldError(
      await put(admin, { ...edited, counties: { ...edited.counties, suffolk: [{ label: 'Population' }] } }),
      'counties.suffolk.0.value',
      'Figure is required',
    );
    await expectFieldError(
      await put(admin, { ...edited, disclaimer: undefined }),
      'disclaimer',
      'Disclaimer is required',
    );
    await expectFieldError(
      await put(admin, { ...edited, disclaimer: 'd'.repeat(601) }),
      'disclaimer',
      'Disclaimer must be at most 600 characters',
    );
    await expectError(await put(admin, { ...edited, html: '<script>' }), 400);
    expect(await readSiteContent(suite.db)).toEqual(before);
  });
});
