import { describe, expect, it } from 'vitest';
import { unsourcedFigures } from './site-content-schema.ts';

const claim = { figure: '75%', label: 'more engagement', detail: '' };
const record = [
  { figure: '1,381+', label: 'homes sold' },
  { figure: 'Top', label: 'agent in town' },
];

describe('the figures the admin is asked about before they are published (minor 34)', () => {
  it('names each claim with a figure and no source, and the track record when it has no source line', () => {
    expect(
      unsourcedFigures({
        claims: [
          { ...claim, source: '' },
          { ...claim, figure: 'Most', source: '' },
          { ...claim, figure: '2%', source: 'Source: MLS' },
        ],
        track_record: record,
        track_record_source: ' ',
      }),
    ).toEqual(['“75% more engagement”', 'the track record (“1,381+ homes sold”)']);
  });

  it('asks nothing of a sourced track record, or of one that states no figure', () => {
    const claims = [{ ...claim, source: 'Source: MLS' }];
    expect(unsourcedFigures({ claims, track_record: record, track_record_source: 'Source: MLS, 2025' })).toEqual([]);
    expect(unsourcedFigures({ claims, track_record: record.slice(1), track_record_source: '' })).toEqual([]);
  });
});
