import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvError, CsvRecordReader, csvRecords, parseCsvFields } from './csv.ts';

/** Every record of `chunks`, read with the reader. */
function recordsOf(chunks: readonly (string | Uint8Array)[], maxRecordLength?: number): string[] {
  const reader = new CsvRecordReader({ maxRecordLength });
  const records: string[] = [];
  const onRecord = (record: string) => records.push(record);
  for (const chunk of chunks) reader.push(chunk, onRecord);
  reader.end(onRecord);
  return records;
}

/** The text cut into pieces at the given positions. */
function cut(text: string, positions: readonly number[]): string[] {
  const sorted = [...new Set(positions)].filter((p) => p > 0 && p < text.length).sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const position of sorted) {
    pieces.push(text.slice(from, position));
    from = position;
  }
  pieces.push(text.slice(from));
  return pieces;
}

const rows = (text: string, chunks?: readonly (string | Uint8Array)[]) =>
  recordsOf(chunks ?? [text]).map((record) => parseCsvFields(record));

describe('parseCsvFields', () => {
  it('splits plain fields, keeping empty ones', () => {
    expect(parseCsvFields('a,b,c')).toEqual(['a', 'b', 'c']);
    expect(parseCsvFields('a,,c,')).toEqual(['a', '', 'c', '']);
    expect(parseCsvFields(',')).toEqual(['', '']);
    expect(parseCsvFields('')).toEqual(['']);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsvFields('1,"New York-Newark-Jersey City, NY-NJ-PA",x')).toEqual([
      '1',
      'New York-Newark-Jersey City, NY-NJ-PA',
      'x',
    ]);
    expect(parseCsvFields('"say ""hi""",""')).toEqual(['say "hi"', '']);
    expect(parseCsvFields('"two\nlines",b')).toEqual(['two\nlines', 'b']);
    expect(parseCsvFields('a,"b"')).toEqual(['a', 'b']);
    expect(parseCsvFields('a,"b",')).toEqual(['a', 'b', '']);
  });

  it('stops after maxFields without looking at the rest', () => {
    expect(parseCsvFields('a,"b,c",d,e', 2)).toEqual(['a', 'b,c']);
    expect(parseCsvFields('a,b,"never closed', 2)).toEqual(['a', 'b']);
    expect(parseCsvFields('a,b', 5)).toEqual(['a', 'b']);
  });

  it('refuses broken quoting', () => {
    expect(() => parseCsvFields('a,"open')).toThrow(CsvError);
    expect(() => parseCsvFields('"closed"x,b')).toThrow(/after the closing quote/);
    expect(() => parseCsvFields('a,b"c')).toThrow(/inside unquoted field 2/);
  });
});

describe('CsvRecordReader', () => {
  it('cuts records at LF and CRLF, with or without a final line break', () => {
    expect(recordsOf(['a,b\nc,d\n'])).toEqual(['a,b', 'c,d']);
    expect(recordsOf(['a,b\r\nc,d\r\n'])).toEqual(['a,b', 'c,d']);
    expect(recordsOf(['a,b\r\nc,d'])).toEqual(['a,b', 'c,d']);
    expect(recordsOf(['a\n\nb\n'])).toEqual(['a', '', 'b']);
    expect(recordsOf([''])).toEqual([]);
  });

  it('keeps a line break inside a quoted field in its record', () => {
    expect(rows('id,note\r\n1,"two\r\nlines"\r\n2,"x, ""y"""\r\n')).toEqual([
      ['id', 'note'],
      ['1', 'two\r\nlines'],
      ['2', 'x, "y"'],
    ]);
  });

  it('drops a UTF-8 byte-order mark, also when it is split across chunks', () => {
    const bytes = new TextEncoder().encode('\ufeffRegionID,x\n1,2\n');
    expect(recordsOf([bytes])).toEqual(['RegionID,x', '1,2']);
    expect(recordsOf([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)])).toEqual(['RegionID,x', '1,2']);
  });

  it('reads the same records whatever the chunk boundaries: mid-line, mid-quote, between CR and LF', () => {
    const text = 'a,"b,\n""c""",d\r\n"Saint James, NY",,3\r\n,,\r\nlast,"x"';
    const expected = [
      ['a', 'b,\n"c"', 'd'],
      ['Saint James, NY', '', '3'],
      ['', '', ''],
      ['last', 'x'],
    ];
    for (let at = 0; at <= text.length; at += 1) expect(rows(text, cut(text, [at]))).toEqual(expected);
    expect(rows(text, [...text])).toEqual(expected);
  });

  it('decodes UTF-8 characters split across byte chunks', () => {
    const bytes = new TextEncoder().encode('Città,“quoted”\nÅ,ü\n');
    for (let at = 0; at <= bytes.length; at += 1) {
      expect(recordsOf([bytes.subarray(0, at), bytes.subarray(at)])).toEqual(['Città,“quoted”', 'Å,ü']);
    }
  });

  it('refuses a record longer than the limit instead of holding the rest of the file', () => {
    const stray = `a,"never closed\n${'1,2,3\n'.repeat(100)}`;
    expect(() => recordsOf([stray], 200)).toThrow(/longer than 200/);
    expect(recordsOf(['x'.repeat(150) + '\n', 'y\n'], 200)).toEqual(['x'.repeat(150), 'y']);
  });

  it('passes an unterminated quoted field at the end on for the parser to refuse', () => {
    const records = recordsOf(['a,b\n1,"open\n']);
    expect(records).toEqual(['a,b', '1,"open\n']);
    expect(() => parseCsvFields(records[1] ?? '')).toThrow(CsvError);
  });

  it('agrees with a whole-text parse for any fields and any chunking (property)', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', '1', 'é'), maxLength: 6 });
    const record = fc.array(field, { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(200), { maxLength: 8 }),
        fc.boolean(),
        (records, cuts, crlf) => {
          // Records of a single empty field are written "" so they are not blank lines.
          const text = records
            .map((fields) =>
              fields.length === 1 && fields[0] === ''
                ? '""'
                : fields
                    .map((value) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value))
                    .join(','),
            )
            .join(crlf ? '\r\n' : '\n');
          const bytes = new TextEncoder().encode(text);
          const pieces = cut(text, cuts);
          expect(rows(text, pieces)).toEqual(records);
          const byteCuts = [...new Set(cuts)].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
          const bytePieces = [0, ...byteCuts].map((from, index) =>
            bytes.subarray(from, byteCuts[index] ?? bytes.length),
          );
          expect(rows(text, bytePieces)).toEqual(records);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('csvRecords', () => {
  it('yields the records of an async source of mixed bytes and text', async () => {
    async function* source() {
      await Promise.resolve();
      yield new TextEncoder().encode('a,"b\n');
      yield 'c"\r\nd,e';
      yield new TextEncoder().encode('\n');
    }
    const records: string[] = [];
    for await (const record of csvRecords(source())) records.push(record);
    expect(records).toEqual(['a,"b\nc"', 'd,e']);
  });

  it('passes on the error of a source that fails part-way', async () => {
    async function* source() {
      await Promise.resolve();
      yield 'a,b\n';
      throw new Error('connection reset');
    }
    const records: string[] = [];
    await expect(async () => {
      for await (const record of csvRecords(source())) records.push(record);
    }).rejects.toThrow('connection reset');
    expect(records).toEqual(['a,b']);
  });
});
