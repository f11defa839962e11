import { describe, expect, it } from 'vitest';
import { addItem, fromDraft, itemCount, moveItem, removeItem, toDraft } from './content-draft.ts';
import { siteContentSchema, type SiteContent } from './site-content-schema.ts';

const content: SiteContent = {
  claims: [
    { figure: '~2%', label: 'higher sale price', detail: 'About $7K more', source: 'Source: MLS data, Apr 2025' },
    { figure: '75%', label: 'more engagement', detail: '', source: '' },
  ],
  track_record: [{ figure: '1,381+', label: 'homes sold' }],
  track_record_source: '',
  testimonial: { quote: 'We closed above asking.', author: 'A seller' },
  disclaimer: 'Results vary.',
  counties: {
    nassau: [{ label: 'Population', value: '1.4M' }],
    suffolk: [{ label: 'Population', value: '1.5M' }],
  },
};
const CLAIMS = { path: 'claims', fields: ['figure', 'label', 'detail', 'source'] };

describe('the content draft', () => {
  it('names each field by the path zod names its error, and turns back into the same content', () => {
    const draft = toDraft(content);
    expect(draft['claims.0.source']).toBe('Source: MLS data, Apr 2025');
    expect(draft['counties.suffolk.0.value']).toBe('1.5M');
    expect(draft['testimonial.quote']).toBe('We closed above asking.');
    expect(siteContentSchema.parse(fromDraft(draft))).toEqual(content);
  });

  it('adds an empty item at the end, removes one, and moves one up or down', () => {
    const draft = toDraft(content);
    const added = addItem(draft, CLAIMS);
    expect(itemCount(added, CLAIMS)).toBe(3);
    expect(added['claims.2.figure']).toBe('');

    const moved = moveItem(draft, CLAIMS, 1, -1);
    expect([moved['claims.0.figure'], moved['claims.1.figure']]).toEqual(['75%', '~2%']);
    expect(moved['claims.1.source']).toBe('Source: MLS data, Apr 2025');
    expect(moveItem(draft, CLAIMS, 1, 1)).toEqual(draft);

    const removed = removeItem(draft, CLAIMS, 0);
    expect(itemCount(removed, CLAIMS)).toBe(1);
    expect(removed['claims.0.figure']).toBe('75%');
    expect(removed['track_record.0.figure']).toBe('1,381+');
  });
});
