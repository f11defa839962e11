/**
 * How a case is put on the wire: a body as JSON, a form, multipart with file parts, or a file as
 * it is (a cut real file, JSON or garbage for the market-data upload), and a path with its query.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { type JsonSchema } from '../schema-arbitrary.ts';
import { type FuzzCase } from './fuzz-case.ts';
import { schema } from './operations.ts';

/** A form field's text as a browser sends it. */
const formText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

export type SentFile = { what: string; bytes: Uint8Array; type: string };

/** `value` sent as `media`: a JSON text, a form, multipart with `files` as file parts, or a file as it is. */
export function encodeBody(
  media: string,
  value: unknown,
  files: readonly [string, SentFile][],
  raw: boolean,
): Pick<FuzzCase, 'body' | 'json' | 'headers'> {
  if (raw)
    return { body: typeof value === 'string' ? value : JSON.stringify(value), headers: { 'content-type': media } };
  const fields = Object.entries(typeof value === 'object' && value !== null ? value : {});
  if (media === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams();
    for (const [key, field] of fields) {
      const text = formText(field);
      if (text !== undefined) form.append(key, text);
    }
    return { body: form.toString(), headers: { 'content-type': media } };
  }
  if (media === 'multipart/form-data') {
    const form = new FormData();
    for (const [key, field] of fields) {
      const text = formText(field);
      if (text !== undefined) form.append(key, text);
    }
    for (const [name, file] of files)
      form.append(name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), 'upload.bin');
    return { body: form, headers: {} };
  }
  return { body: JSON.stringify(value), json: value, headers: { 'content-type': media } };
}

/** The file parts of a multipart schema (format: binary), to fill with images or garbage. */
export const filePartsOf = (body: JsonSchema): string[] =>
  Object.entries(z.record(z.string(), schema).parse(body.properties ?? {}))
    .filter(([, property]) => property.format === 'binary')
    .map(([name]) => name);

export const withQuery = (path: string, query: [string, string][]) =>
  query.length === 0 ? path : `${path}?${query.map(([key, value]) => `${encodeURIComponent(key)}=${value}`).join('&')}`;

export const stringOfValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A file a route reads as it is (the market-data upload): a cut real file, JSON, or garbage. */
export function rawUpload(media: string): fc.Arbitrary<string> {
  const zhvi = 'RegionID,SizeRank,RegionName,RegionType,StateName,State,Metro,CountyName,2024-01-31,2024-02-29\n';
  return fc.oneof(
    fc.constantFrom(
      zhvi,
      `${zhvi}1,1,Montauk,city,NY,NY,"New York",Suffolk County,900000,910000\n`,
      `${zhvi}1,1,Montauk,city,NY,NY,"New York",Suffolk County,abc,-5\n`,
      '{"value":[{"ListingId":"1","ClosePrice":"lots","City":"Montauk"}]}',
      '{"value":[]}',
      media === 'text/csv' ? '"' : '{',
    ),
    fc.string({ maxLength: 200 }),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  );
}
