import { describe, expect, it } from 'vitest';
import { amount, fees, options, quick } from '../../../tests/support/net-sheet-examples.ts';
import { computeDetailedSheet } from './detailed-sheet.ts';
import { placeFor } from './county.ts';
import { netSheetDetailsSchema } from './details.ts';

describe("the sheet's notes", () => {
  it('notes the East End buyer taxes in Southampton without charging the seller', () => {
    const base = { county: 'Suffolk', closing_date: '2027-01-15' } as const;
    const east = computeDetailedSheet(
      quick(900_000_00),
      netSheetDetailsSchema.parse({ ...base, town: 'Southampton' }),
      fees,
      options,
    );
    const west = computeDetailedSheet(
      quick(900_000_00),
      netSheetDetailsSchema.parse({ ...base, town: 'Islip' }),
      fees,
      options,
    );
    expect(east.notes.map((note) => note.key)).toContain('east_end');
    expect(west.notes.map((note) => note.key)).not.toContain('east_end');
    expect(east.lines).toEqual(west.lines);
    expect(placeFor('Baldwin')).toEqual({ town: 'Baldwin', county: 'Nassau' });
    expect(placeFor(' baldwin ')).toEqual({ town: ' baldwin ', county: 'Nassau' });
    expect(placeFor('11510')).toEqual({ town: 'Baldwin', county: 'Nassau' });
    expect(placeFor('11968')).toEqual({ town: 'Southampton', county: 'Suffolk' });
    expect(placeFor('Atlantis')).toBeUndefined();
    expect(placeFor('99999')).toBeUndefined();
  });

  it('puts the mansion-tax cliff between $999,999 and $1,000,000, and steps the transfer tax per started $500', () => {
    const below = computeDetailedSheet(quick(999_999_00), undefined, fees, options);
    const at = computeDetailedSheet(quick(1_000_000_00), undefined, fees, options);
    const above = computeDetailedSheet(quick(1_000_001_00), undefined, fees, options);
    expect(below.notes.map((note) => note.key)).toContain('mansion_tax_cliff');
    expect(at.notes.find((note) => note.key === 'mansion_tax')?.text).toContain('$10,000');
    // 999,999 / 500 = 1,999.998 -> 2,000 steps; 1,000,000 -> 2,000; 1,000,001 -> 2,001 steps × $2.
    expect([below, at, above].map((sheet) => amount(sheet, 'transfer_tax'))).toEqual([400_000, 400_000, 400_200]);
  });
});
