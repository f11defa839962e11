/**
 * The fixed bad inputs of the fuzz: path parameter and query values no route should choke on,
 * bodies that are not the JSON object a route reads, and garbage files.
 */
import { HUGE } from '../schema-arbitrary.ts';
import { type SentFile } from './encoding.ts';

/** Path parameter values no route should choke on. */
export const BAD_PATH_VALUES = [
  '99999999999999999999999',
  // Just beyond PostgreSQL's integer, and the audit's (finding 13): a 500 when an id is unbounded.
  '2147483648',
  '8589934592',
  '9007199254740993',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x1f',
  'NaN',
  '..',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  'a%00b',
  '%',
  '%ZZ',
  '%E0%A4%A',
  encodeURIComponent('😀'),
  '%F0%9F%98%80',
  encodeURIComponent("1' OR '1'='1"),
  encodeURIComponent('<script>alert(1)</script>'),
  'x'.repeat(5000),
  '%20',
  encodeURIComponent('a/b'),
] as const;

/** Query values no route should choke on. */
export const BAD_QUERY_VALUES = [...BAD_PATH_VALUES, '', 'true', '[]', '{}', '-0', '1e400'] as const;

/** Bodies that are not the JSON object a route reads, with the Content-Type they are sent with. */
export const RAW_BODIES: readonly { what: string; body: string | Uint8Array; type?: string }[] = [
  { what: 'malformed JSON', body: '{"a":' },
  { what: 'malformed JSON', body: "{'single': 'quotes'}" },
  { what: 'malformed JSON', body: '{"a":1}}' },
  { what: 'malformed JSON', body: '[1,2' },
  { what: 'JSON null', body: 'null' },
  { what: 'a JSON array', body: '[]' },
  { what: 'a JSON string', body: '"text"' },
  { what: 'a JSON number', body: '1e999' },
  { what: 'an empty body', body: '' },
  { what: 'whitespace', body: ' \n\t ' },
  { what: 'a BOM and an object', body: '\uFEFF{}' },
  {
    what: 'bytes that are not UTF-8',
    body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
  },
  { what: 'bytes that are not UTF-8', body: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]) },
  { what: 'deeply nested JSON', body: `${'['.repeat(20000)}${']'.repeat(20000)}` },
  { what: 'deeply nested JSON', body: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` },
  { what: 'a 1 MB JSON body', body: JSON.stringify({ a: HUGE }) },
  {
    what: 'a __proto__ key',
    body: '{"__proto__":{"is_admin":true,"success":true},"constructor":{"prototype":{"x":1}}}',
  },
  { what: 'duplicate keys', body: '{"a":1,"a":"two","a":null}' },
  { what: 'text/plain JSON', body: '{}', type: 'text/plain' },
  { what: 'XML', body: '<?xml version="1.0"?><a/>', type: 'application/xml' },
  { what: 'no Content-Type', body: '{}', type: '' },
  { what: 'a made-up Content-Type', body: '{}', type: 'application/x-fuzz; charset=klingon' },
  { what: 'JSON with a charset', body: '{}', type: 'application/json; charset=utf-16' },
  { what: 'a form', body: 'a=1&b=%ZZ&c', type: 'application/x-www-form-urlencoded' },
  {
    what: 'a malformed multipart body',
    body: '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nnot an image',
    type: 'multipart/form-data; boundary=x',
  },
  { what: 'a multipart type without a boundary', body: 'abc', type: 'multipart/form-data' },
  { what: 'a CSV', body: 'RegionName,2024-01-31\n"unterminated,1', type: 'text/csv' },
];

/** Garbage and real images, for file parts and data-URL fields. */
export interface ImageSamples {
  png: Uint8Array;
}

export const GARBAGE_FILES: readonly SentFile[] = [
  {
    what: 'random bytes as a PNG',
    bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
    type: 'image/png',
  },
  { what: 'text as a JPEG', bytes: new TextEncoder().encode('not a jpeg at all'), type: 'image/jpeg' },
  {
    what: 'an SVG with a script',
    bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    type: 'image/svg+xml',
  },
  { what: 'an empty file', bytes: new Uint8Array(), type: 'image/png' },
  { what: 'a PDF', bytes: new TextEncoder().encode('%PDF-1.4\n%%EOF'), type: 'application/pdf' },
];

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
