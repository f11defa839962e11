/**
 * Fuzz requests for every operation of the OpenAPI document (src/app/openapi.server.ts): valid
 * ones from its schemas (path parameters naming real fixtures sometimes), and invalid ones (a body
 * with a field dropped, of a wrong type, too long or 1 MB, out of range, an unknown field; malformed
 * JSON, an empty body, a wrong Content-Type, bytes that are not UTF-8; bad path parameters and
 * query values, repeated query keys), each sent as a caller the operation's access allows.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { HUGE, invalidOf, validOf, type Hints, type JsonSchema } from './schema-arbitrary.ts';

export type Access = 'public' | 'agent' | 'admin';
export type Caller = 'signed out' | 'agent A' | 'admin';

/** One operation of the document, as the fuzz reads it. */
export interface DocOperation {
  /** `METHOD /api/path/:param`, as ROUTE_ACCESS names it. */
  key: string;
  method: string;
  /** As documented: `/api/estimates/{uuid}`. */
  path: string;
  access: Access;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; schema: JsonSchema; required: boolean }[];
  /** Request body schema by media type. */
  body: Record<string, JsonSchema>;
  success: { status: number; media?: string; schema?: JsonSchema };
}

const schema = z.record(z.string(), z.unknown());
const operationSchema = z.object({
  'x-access': z.enum(['public', 'agent', 'admin']),
  parameters: z.array(z.object({ name: z.string(), in: z.enum(['path', 'query']), required: z.boolean(), schema })),
  requestBody: z.object({ content: z.record(z.string(), z.object({ schema })) }).optional(),
  responses: z.record(z.string(), z.object({ content: z.record(z.string(), z.object({ schema })).optional() }).loose()),
});
const documentSchema = z.object({ paths: z.record(z.string(), z.record(z.string(), operationSchema)) });

/** Every operation of the OpenAPI document. */
export function operationsOf(document: unknown): DocOperation[] {
  return Object.entries(documentSchema.parse(document).paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): DocOperation => {
      const [status = '200', response] = Object.entries(operation.responses).find(([code]) => Number(code) < 400) ?? [];
      const [media, content] = Object.entries(response?.content ?? {})[0] ?? [];
      return {
        key: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
        method: method.toUpperCase(),
        path,
        access: operation['x-access'],
        pathParams: operation.parameters.filter((parameter) => parameter.in === 'path'),
        queryParams: operation.parameters.filter((parameter) => parameter.in === 'query'),
        body: Object.fromEntries(
          Object.entries(operation.requestBody?.content ?? {}).map(([type, { schema: body }]) => [type, body]),
        ),
        success: { status: Number(status), media, schema: content?.schema },
      };
    }),
  );
}

/** A request of the fuzz, and what it is, for the report of a failing case. */
export interface FuzzCase {
  caller: Caller;
  method: string;
  /** Path and query, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** The JSON value of a body sent as application/json, for the document's check of an accepted one. */
  json?: unknown;
  /** valid, or what was broken. */
  what: string;
}

/** A case as a failing run reports it: short enough to read (a 1 MB body is shown by its size). */
export function describeCase(fuzzCase: FuzzCase): string {
  const { body } = fuzzCase;
  let shown: string;
  if (body === undefined) shown = '(none)';
  else if (typeof body === 'string') shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
  else if (body instanceof Uint8Array) shown = `bytes ${Buffer.from(body).toString('hex').slice(0, 200)}`;
  else shown = `multipart ${JSON.stringify([...body.keys()])}`;
  return [
    `${fuzzCase.method} ${fuzzCase.path.length > 300 ? `${fuzzCase.path.slice(0, 300)}…` : fuzzCase.path}`,
    `as ${fuzzCase.caller}: ${fuzzCase.what}`,
    `headers ${JSON.stringify(fuzzCase.headers)}`,
    `body ${shown}`,
  ].join('\n');
}

/** The callers an access allows (the fuzz sends as them; other callers are the matrix's). */
const CALLERS_OF: Record<Access, readonly Caller[]> = {
  public: ['signed out', 'signed out', 'agent A', 'admin'],
  agent: ['agent A', 'agent A', 'admin'],
  admin: ['admin'],
};

/** Path parameter values no route should choke on. */
const BAD_PATH_VALUES = [
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
const BAD_QUERY_VALUES = [...BAD_PATH_VALUES, '', 'true', '[]', '{}', '-0', '1e400'] as const;

/** Bodies that are not the JSON object a route reads, with the Content-Type they are sent with. */
const RAW_BODIES: readonly { what: string; body: string | Uint8Array; type?: string }[] = [
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

const GARBAGE_FILES: readonly SentFile[] = [
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

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** What the requests of an operation may name: read when each case is made, so they stay current. */
export interface Fixtures {
  agentSlug: () => string;
  agentId: () => number;
  agentEmail: () => string;
  password: () => string;
  estimateUuid: () => string;
  offersUuid: () => string;
  leadId: () => number;
  /** An agent the admin may deactivate or delete (never agent A or the admin). */
  spareAgentId: () => number;
  imageFile: () => string;
  unsubscribeToken: () => string;
  images: ImageSamples;
}

const lazy = <T>(read: () => T) => fc.constant(null).map(read);

/**
 * A real row's id, or now and then one just past PostgreSQL's integer (every id column's type): an
 * id schema without that bound let `"agent_id":8589934592` reach the database, a 500 (audit
 * 2026-11-26, finding 13).
 */
const orBeyondInt4 = (real: fc.Arbitrary<number>): fc.Arbitrary<number> =>
  fc.oneof({ weight: 3, arbitrary: real }, fc.constantFrom(2_147_483_648, 8_589_934_592));

/** Values of named fields to mix in with random ones: the fixtures, and text a form would send. */
function hintsFor(operation: DocOperation, fixtures: Fixtures): Hints {
  const pngUrl = `data:image/png;base64,${base64(fixtures.images.png)}`;
  const image = fc.oneof(
    fc.constant(pngUrl),
    fc.constantFrom(...GARBAGE_FILES).map((file) => `data:${file.type};base64,${base64(file.bytes)}`),
    fc.constantFrom(
      'data:image/png;base64,!!!!',
      'data:,',
      'data:image/png,raw',
      `data:image/png;base64,${'A'.repeat(3000)}`,
    ),
  );
  // Addresses as people have them (fc.emailAddress() makes valid RFC ones most forms refuse).
  const email = fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/),
      fc.constantFrom('example.com', 'example.org', 'mail.example.net'),
    )
    .map(([local, domain]) => `${local}@${domain}`);
  return (name) => {
    switch (name) {
      case 'agent_slug':
        return lazy(fixtures.agentSlug);
      case 'slug':
        return operation.path.startsWith('/api/towns/')
          ? fc.constantFrom('montauk', 'bay-shore', 'garden-city', 'no-such-town')
          : lazy(fixtures.agentSlug);
      case 'uuid':
        return operation.path.startsWith('/api/offers/') ? lazy(fixtures.offersUuid) : lazy(fixtures.estimateUuid);
      case 'estimate_uuid':
        return lazy(fixtures.estimateUuid);
      case 'id':
        return orBeyondInt4(
          operation.path.startsWith('/api/admin/agents/') ? lazy(fixtures.spareAgentId) : lazy(fixtures.leadId),
        );
      case 'agent_id':
        return orBeyondInt4(lazy(fixtures.agentId));
      case 'agent':
        return orBeyondInt4(lazy(fixtures.agentId)).map(String);
      case 'lead_ids':
        return orBeyondInt4(lazy(fixtures.leadId)).map((id) => [id]);
      case 'file':
        return lazy(fixtures.imageFile);
      case 'town':
        return fc.constantFrom('montauk', 'Bay Shore', 'garden-city', 'Nowhere');
      case 'email':
        return operation.path === '/api/auth/login' ? lazy(fixtures.agentEmail) : email;
      case 'recipient_email':
        return email;
      case 'password':
        return operation.path === '/api/auth/login' ? lazy(fixtures.password) : undefined;
      case 'token':
        return operation.path === '/api/email/unsubscribe' ? lazy(fixtures.unsubscribeToken) : undefined;
      case 'imageData':
      case 'image':
        return image;
      case 'phone':
        return fc.constantFrom('(631) 555-0142', '516-555-0199', '+1 631 555 0100');
      case 'firstName':
      case 'first_name':
      case 'name':
      case 'recipient_name':
      case 'sender_name':
        return fc.constantFrom('Robin', "O'Neil", 'Anne-Marie', 'J. R.');
      case 'lastName':
      case 'last_name':
        return fc.constantFrom('Seller', 'Smith-Jones');
      case 'consent_marketing':
        return fc.constant(true);
      default:
        return undefined;
    }
  };
}

/** A form field's text as a browser sends it. */
const formText = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

type SentFile = { what: string; bytes: Uint8Array; type: string };

/** `value` sent as `media`: a JSON text, a form, multipart with `files` as file parts, or a file as it is. */
function encodeBody(
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
const filePartsOf = (body: JsonSchema): string[] =>
  Object.entries(z.record(z.string(), schema).parse(body.properties ?? {}))
    .filter(([, property]) => property.format === 'binary')
    .map(([name]) => name);

const withQuery = (path: string, query: [string, string][]) =>
  query.length === 0 ? path : `${path}?${query.map(([key, value]) => `${encodeURIComponent(key)}=${value}`).join('&')}`;

const stringOfValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Every case of one operation: valid and invalid requests as its callers. */
export function casesOf(operation: DocOperation, fixtures: Fixtures): fc.Arbitrary<FuzzCase> {
  const hints = hintsFor(operation, fixtures);
  const caller = fc.constantFrom(...CALLERS_OF[operation.access]);
  const validParams = fc.tuple(
    ...operation.pathParams.map(({ schema: param, name }) => {
      const hinted = hints(name);
      const own = validOf(param).map(stringOfValue);
      return hinted ? fc.oneof({ weight: 2, arbitrary: hinted.map(stringOfValue) }, own) : own;
    }),
  );
  const validQuery = fc
    .tuple(
      ...operation.queryParams.map(({ name, schema: param, required }) => {
        const hinted = hints(name);
        const own = validOf(param).map(stringOfValue);
        const value = hinted ? fc.oneof(hinted.map(stringOfValue), own) : own;
        return (required ? value : fc.option(value, { nil: undefined })).map((text): [string, string][] =>
          text === undefined ? [] : [[name, encodeURIComponent(text)]],
        );
      }),
    )
    .map((parts) => parts.flat());
  const pathWith = (params: string[]) =>
    operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const index = operation.pathParams.findIndex((param) => param.name === name);
      return encodeURIComponent(params[index] ?? '');
    });
  const rawPathWith = (params: string[]) =>
    operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const index = operation.pathParams.findIndex((param) => param.name === name);
      return params[index] ?? '';
    });

  const medias = Object.entries(operation.body);
  const noBody = fc.constant<Pick<FuzzCase, 'body' | 'json' | 'headers'>>({ headers: {} });
  const fileParts = (body: JsonSchema): fc.Arbitrary<[string, SentFile][]> => {
    const names = filePartsOf(body);
    if (names.length === 0) return fc.constant([]);
    const file = fc.oneof(
      fc.constant({ what: 'a PNG', bytes: fixtures.images.png, type: 'image/png' }),
      fc.constantFrom(...GARBAGE_FILES),
    );
    return fc.array(fc.tuple(fc.constantFrom(...names), file), { maxLength: 2 });
  };
  /** A body of the operation from `make` (valid or broken) in one of its media types. */
  const bodies = (make: (body: JsonSchema, media: string) => fc.Arbitrary<{ value: unknown; what: string }>) =>
    medias.length === 0
      ? noBody.map((body) => ({ ...body, what: 'valid' }))
      : fc.oneof(
          ...medias.map(([media, body]) =>
            fc.tuple(make(body, media), fileParts(body)).map(([{ value, what }, files]) => ({
              ...encodeBody(media, value, files, body.format === 'binary'),
              what:
                files.length > 0
                  ? `${what}; files: ${files.map(([name, file]) => `${name} ${file.what}`).join(', ')}`
                  : what,
            })),
          ),
        );
  const validBody = (body: JsonSchema, media: string) =>
    (body.format === 'binary' ? rawUpload(media) : validOf(body, hints)).map((value) => ({ value, what: 'valid' }));
  const brokenBody = (body: JsonSchema, media: string) =>
    body.format === 'binary' || (body.type === undefined && body.anyOf === undefined)
      ? validBody(body, media)
      : invalidOf(body, hints).map(({ value, broken }) => ({ value, what: broken }));

  const make = (
    params: fc.Arbitrary<string[]>,
    query: fc.Arbitrary<[string, string][]>,
    body: fc.Arbitrary<Pick<FuzzCase, 'body' | 'json' | 'headers'> & { what: string }>,
    raw = false,
  ): fc.Arbitrary<FuzzCase> =>
    fc.tuple(caller, params, query, body).map(([who, values, pairs, { what, ...sent }]) => ({
      caller: who,
      method: operation.method,
      path: withQuery(raw ? rawPathWith(values) : pathWith(values), pairs),
      ...sent,
      what,
    }));

  const kinds: fc.WeightedArbitrary<FuzzCase>[] = [
    { weight: 5, arbitrary: make(validParams, validQuery, bodies(validBody)) },
  ];
  if (medias.length > 0) {
    kinds.push({ weight: 4, arbitrary: make(validParams, validQuery, bodies(brokenBody)) });
    kinds.push({
      weight: 3,
      arbitrary: make(
        validParams,
        validQuery,
        fc.constantFrom(...RAW_BODIES).map(({ what, body, type = 'application/json' }) => {
          const headers: Record<string, string> = type === '' ? {} : { 'content-type': type };
          return { what, body, headers };
        }),
      ),
    });
  }
  if (operation.pathParams.length > 0) {
    const badParams = fc.tuple(...operation.pathParams.map(() => fc.constantFrom(...BAD_PATH_VALUES).map(String)));
    kinds.push({
      weight: 3,
      arbitrary: make(badParams, validQuery, bodies(validBody), true).map((fuzzCase) => ({
        ...fuzzCase,
        what: `bad path parameters; body ${fuzzCase.what}`,
      })),
    });
  }
  const badQuery = fc
    .tuple(
      validQuery,
      fc.array(
        fc.tuple(
          fc.oneof(
            ...(operation.queryParams.length > 0
              ? [fc.constantFrom(...operation.queryParams.map(({ name }) => name))]
              : []),
            fc.constantFrom('unknown', 'page', '__proto__', 'a[b]', ''),
          ),
          fc.constantFrom(...BAD_QUERY_VALUES),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    )
    .map(([valid, bad]) => [...valid, ...bad.map(([key, value]): [string, string] => [key, value])]);
  kinds.push({
    weight: operation.queryParams.length > 0 ? 3 : 1,
    arbitrary: make(validParams, badQuery, bodies(validBody)).map((fuzzCase) => ({
      ...fuzzCase,
      what: `bad or repeated query values; body ${fuzzCase.what}`,
    })),
  });
  return fc.oneof(...kinds);
}

/** A file a route reads as it is (the market-data upload): a cut real file, JSON, or garbage. */
function rawUpload(media: string): fc.Arbitrary<string> {
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
