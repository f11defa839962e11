/**
 * The admin-editable marketing content of the public pages (claims with their source lines, track
 * record, testimonial, footer disclaimer, the counties' figures): GET and PUT
 * /api/admin/site-content, the /admin/content form and the build share this shape, its limits and
 * its messages. The defaults are the seed of migration 0018, not here.
 */
import * as z from 'zod/mini';
import { requiredText } from '../forms/public/text-fields.ts';

/** How long each text may be, and how many items each list holds. */
export const CONTENT_LIMITS = {
  items: 6,
  figure: 20,
  label: 60,
  detail: 160,
  source: 120,
  quote: 600,
  author: 80,
  disclaimer: 600,
  statLabel: 40,
  statValue: 20,
} as const;

export const CONTENT_MESSAGES = {
  saved: 'Site content saved. The public pages show it after the next rebuild.',
  saveFailed: 'Failed to save site content',
  saveError: 'An error occurred while saving site content',
  loadFailed: 'Failed to load the site content',
} as const;

/** Empty means "not shown". */
const optional = (label: string, max: number) =>
  z._default(
    z.string(`${label} must be text`).check(z.trim(), z.maxLength(max, `${label} must be at most ${max} characters`)),
    '',
  );

const list = <Item extends z.ZodMiniType>(item: Item, plural: string) =>
  z
    .array(item, `The ${plural} must be a list`)
    .check(
      z.minLength(1, `Keep at least one of the ${plural}`),
      z.maxLength(CONTENT_LIMITS.items, `At most ${CONTENT_LIMITS.items} ${plural}`),
    );

export const claimSchema = z.strictObject({
  figure: requiredText('Figure', CONTENT_LIMITS.figure),
  label: requiredText('Label', CONTENT_LIMITS.label),
  detail: optional('Detail', CONTENT_LIMITS.detail),
  source: optional('Source', CONTENT_LIMITS.source),
});

export const trackRecordItemSchema = z.strictObject({
  figure: requiredText('Figure', CONTENT_LIMITS.figure),
  label: requiredText('Label', CONTENT_LIMITS.label),
});

export const countyStatSchema = z.strictObject({
  label: requiredText('Label', CONTENT_LIMITS.statLabel),
  value: requiredText('Figure', CONTENT_LIMITS.statValue),
});

/** PUT: the whole content; it replaces what is saved. */
export const siteContentSchema = z.strictObject({
  claims: list(claimSchema, 'claims'),
  track_record: list(trackRecordItemSchema, 'track record figures'),
  /** Small print under the track record (minor 34 follow-up); empty means not shown. */
  track_record_source: optional('The track record’s source', CONTENT_LIMITS.source),
  testimonial: z.strictObject(
    {
      quote: requiredText('Quote', CONTENT_LIMITS.quote),
      author: requiredText('Author', CONTENT_LIMITS.author),
    },
    'The testimonial needs a quote and an author',
  ),
  disclaimer: requiredText('Disclaimer', CONTENT_LIMITS.disclaimer),
  counties: z.strictObject(
    {
      nassau: list(countyStatSchema, 'Nassau County figures'),
      suffolk: list(countyStatSchema, 'Suffolk County figures'),
    },
    'The counties need their figures',
  ),
});
export type SiteContent = z.output<typeof siteContentSchema>;
export type Claim = SiteContent['claims'][number];

const statesFigure = (item: { figure: string }) => /\d/.test(item.figure);

/**
 * What states a figure (a digit: "~2%", "1,381+") with no source line (minor 34): each such claim,
 * and the track record when it has no source line of its own. The admin is asked before they go
 * out, each named: "“75% more engagement”", "the track record (“1,381+ homes sold”, …)".
 */
export function unsourcedFigures(
  content: Pick<SiteContent, 'claims' | 'track_record' | 'track_record_source'>,
): string[] {
  const quoted = (item: { figure: string; label: string }) => `“${item.figure} ${item.label}”`;
  const claims = content.claims.filter((claim) => statesFigure(claim) && claim.source.trim() === '').map(quoted);
  const record = content.track_record.filter(statesFigure);
  if (record.length === 0 || content.track_record_source.trim() !== '') return claims;
  return [...claims, `the track record (${record.map(quoted).join(', ')})`];
}

export const siteContentAnswerSchema = z.object({ success: z.literal(true), content: siteContentSchema });
export const siteContentSavedSchema = z.extend(siteContentAnswerSchema, { message: z.string() });
