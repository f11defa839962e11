/**
 * A small streaming CSV reader (RFC 4180) for the large files of the market-data pipeline.
 *
 * Two separate steps, so a caller pays only for what it needs:
 * - {@link CsvRecordReader} cuts a stream of chunks (bytes or text, split anywhere: inside a line,
 *   a quoted field or a UTF-8 character) into records, one line each unless a quoted field holds a
 *   line break. It keeps only the unfinished record between chunks, never the file, and refuses a
 *   record longer than `maxRecordLength` (a stray quote would otherwise swallow the rest of the file).
 * - {@link parseCsvFields} splits one record into fields, optionally only the first few (enough to
 *   decide whether the row is wanted at all).
 *
 * Fields may be quoted ("a, b"), with "" for a quote inside; records end with LF or CRLF; a UTF-8
 * byte-order mark at the start is dropped. No server imports: pure logic.
 */

/** A record that is not valid CSV (unterminated quote, text after a closing quote, too long). */
export class CsvError extends Error {
  override name = 'CsvError';
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const BOM = '\ufeff';

export interface CsvReaderOptions {
  /** The longest record accepted, in UTF-16 code units (default 1 MiB). */
  maxRecordLength?: number;
}

export const DEFAULT_MAX_RECORD_LENGTH = 1 << 20;

/**
 * Cuts chunks into records. `push` each chunk in order, then `end`; each calls `onRecord` for the
 * records it completes, synchronously. Empty lines are passed on as empty records.
 */
export class CsvRecordReader {
  readonly #decoder = new TextDecoder('utf-8');
  readonly #maxRecordLength: number;
  /** Text not yet passed on; always starts at the beginning of a record. */
  #pending = '';
  /** How far into #pending the quote parity below is known (just after the last line break seen). */
  #scanFrom = 0;
  /** Whether #scanFrom is inside a quoted field. */
  #inQuotes = false;
  /** The first quote at or after #scanFrom, or -1 when #pending has none there. */
  #nextQuote = -1;
  #started = false;
  #ended = false;

  constructor(options: CsvReaderOptions = {}) {
    this.#maxRecordLength = options.maxRecordLength ?? DEFAULT_MAX_RECORD_LENGTH;
  }

  push(chunk: Uint8Array | string, onRecord: (record: string) => void): void {
    if (this.#ended) throw new Error('CsvRecordReader: push after end');
    const text =
      typeof chunk === 'string' ? this.#decoder.decode() + chunk : this.#decoder.decode(chunk, { stream: true });
    this.#append(text, onRecord);
  }

  /** Passes on the last record (a file need not end with a line break). */
  end(onRecord: (record: string) => void): void {
    if (this.#ended) return;
    this.#append(this.#decoder.decode(), onRecord);
    this.#ended = true;
    const pending = this.#pending;
    this.#pending = '';
    if (pending === '') return;
    // An unterminated quoted field reaches the field parser, which reports it.
    onRecord(pending.charCodeAt(pending.length - 1) === CR ? pending.slice(0, -1) : pending);
  }

  #append(text: string, onRecord: (record: string) => void): void {
    if (text === '') return;
    if (!this.#started) {
      this.#started = true;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    const oldLength = this.#pending.length;
    let pending = oldLength === 0 ? text : this.#pending + text;
    if (this.#nextQuote === -1) this.#nextQuote = pending.indexOf('"', Math.max(oldLength, this.#scanFrom));
    let start = 0;
    let scanFrom = this.#scanFrom;
    let inQuotes = this.#inQuotes;
    let nextQuote = this.#nextQuote;
    for (;;) {
      const newline = pending.indexOf('\n', scanFrom);
      if (newline === -1) break;
      while (nextQuote !== -1 && nextQuote < newline) {
        inQuotes = !inQuotes;
        nextQuote = pending.indexOf('"', nextQuote + 1);
      }
      scanFrom = newline + 1;
      if (inQuotes) continue; // a line break inside a quoted field
      const end = newline > start && pending.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
      onRecord(pending.slice(start, end));
      start = newline + 1;
    }
    if (start > 0) {
      pending = pending.slice(start);
      scanFrom -= start;
      if (nextQuote !== -1) nextQuote -= start;
    }
    if (pending.length > this.#maxRecordLength) {
      throw new CsvError(`A record is longer than ${this.#maxRecordLength} characters (an unterminated quoted field?)`);
    }
    this.#pending = pending;
    this.#scanFrom = scanFrom;
    this.#inQuotes = inQuotes;
    this.#nextQuote = nextQuote;
  }
}

/** The records of a stream of chunks, one at a time; memory holds one chunk and one record. */
export async function* csvRecords(
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: CsvReaderOptions = {},
): AsyncGenerator<string, void, undefined> {
  const reader = new CsvRecordReader(options);
  let batch: string[] = [];
  const collect = (record: string) => {
    batch.push(record);
  };
  for await (const chunk of source) {
    reader.push(chunk, collect);
    if (batch.length > 0) {
      const records = batch;
      batch = [];
      yield* records;
    }
  }
  reader.end(collect);
  yield* batch;
}

/**
 * The fields of one record. With `maxFields`, stops after that many fields (the rest of the record
 * is not looked at). Throws {@link CsvError} when a quoted field is not closed, when text follows
 * a closing quote, or when a quote appears inside an unquoted field.
 */
export function parseCsvFields(record: string, maxFields = Number.POSITIVE_INFINITY): string[] {
  const fields: string[] = [];
  const length = record.length;
  let pos = 0;
  while (fields.length < maxFields) {
    if (record.charCodeAt(pos) === QUOTE) {
      let value = '';
      let from = pos + 1;
      for (;;) {
        const quote = record.indexOf('"', from);
        if (quote === -1) throw new CsvError(`Unterminated quoted field ${fields.length + 1}`);
        if (record.charCodeAt(quote + 1) === QUOTE) {
          value += record.slice(from, quote + 1);
          from = quote + 2;
          continue;
        }
        value += record.slice(from, quote);
        pos = quote + 1;
        break;
      }
      fields.push(value);
      if (pos === length) break;
      if (record.charCodeAt(pos) !== COMMA)
        throw new CsvError(`Text after the closing quote of field ${fields.length}`);
      pos += 1;
    } else {
      const comma = record.indexOf(',', pos);
      const value = comma === -1 ? record.slice(pos) : record.slice(pos, comma);
      if (value.includes('"')) throw new CsvError(`A quote inside unquoted field ${fields.length + 1}`);
      fields.push(value);
      if (comma === -1) break;
      pos = comma + 1;
    }
  }
  return fields;
}
