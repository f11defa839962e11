/**
 * fast-check arbitraries from the JSON Schemas of our OpenAPI document (draft 2020-12 as zod 4's
 * z.toJSONSchema writes them), for the fuzz (tests/integration/fuzz.test.ts, scripts/fuzz.ts).
 * No maintained library fits (decision 0022): json-schema-fast-check is archived, zod-fast-check
 * reads zod 3 schemas only, json-schema-faker has its own global random source (no shrinking, no
 * fast-check seed). So this handles exactly the keywords the document uses: type (and type arrays),
 * properties/required/additionalProperties/propertyNames/minProperties, enum/const,
 * anyOf/oneOf/allOf, minLength/maxLength/pattern/format, minimum/maximum/exclusive*, multipleOf,
 * items/minItems/maxItems. An unknown keyword throws, so a new one in the document is noticed.
 *
 * validOf(schema) gives values the schema accepts; invalidOf(schema) gives values it refuses, each
 * with what was broken (a required field dropped, a wrong type, a string too long or huge, a number
 * out of range, a pattern or enum missed, an unknown field). Generated text never looks like a leak
 * (leaks), so a leak in an answer can only come from the server.
 */
import fc from 'fast-check';
import * as z from 'zod';

export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What an answer must never show: a stack frame, a source path, SQL, an internal or library name.
 * SQL and error class names in their own case ("Please select an image" is not SQL); the rest in any.
 */
const LEAKS = [
  /\bat .+:\d+:\d+|\.ts\b|node_modules|relation "|violates|pglite|neon|postgres/i,
  /\b(SELECT|INSERT|UPDATE|DELETE) |TypeError|ZodError/,
];
export const leaks = (text: string): boolean => LEAKS.some((pattern) => pattern.test(text));

/** Values of a named property to mix in with the schema's own (real fixtures: a slug, a uuid). */
export type Hints = (name: string) => fc.Arbitrary<unknown> | undefined;

const KNOWN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  'allOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'minItems',
  'maxItems',
  'default',
  'description',
]);

const schemaRecord = z.record(z.string(), z.unknown());
const schemaList = z.array(schemaRecord);
const optionalNumber = z.number().optional();
const stringList = z.array(z.string());

const sub = (schema: JsonSchema, key: string): JsonSchema | undefined => {
  const value = schema[key];
  return value === undefined ? undefined : schemaRecord.parse(value);
};
const subs = (schema: JsonSchema, key: string): JsonSchema[] | undefined => {
  const value = schema[key];
  return value === undefined ? undefined : schemaList.parse(value);
};
const num = (schema: JsonSchema, key: string): number | undefined => optionalNumber.parse(schema[key]);
const propertiesOf = (schema: JsonSchema): [string, JsonSchema][] =>
  Object.entries(z.record(z.string(), schemaRecord).parse(schema.properties ?? {}));
const requiredOf = (schema: JsonSchema): Set<string> => new Set(stringList.parse(schema.required ?? []));
const typesOf = (schema: JsonSchema): string[] => {
  const type = schema.type;
  if (type === undefined) return [];
  return typeof type === 'string' ? [type] : stringList.parse(type);
};

function checkKeywords(schema: JsonSchema): void {
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`schema-arbitrary: unknown keyword ${key}`);
}

/** allOf as one schema: the document's allOf narrows one type in one branch, so merging them is exact. */
const merged = (schema: JsonSchema, parts: JsonSchema[]): JsonSchema =>
  Object.fromEntries([...parts, schema].flatMap((part) => Object.entries(part)).filter(([key]) => key !== 'allOf'));

const harmless = (text: string) => !leaks(text);

/**
 * fc.stringMatching, built once per pattern: building one costs 10-40 ms (fast-check tokenizes its
 * sample strings against the pattern), and invalidOf builds a whole valid object for each field it
 * can break, so a schema's patterns were built again and again. Arbitraries hold no state, so
 * sharing one is safe.
 */
const byPattern = new Map<string, fc.Arbitrary<string>>();
function matching(pattern: RegExp): fc.Arbitrary<string> {
  const key = String(pattern);
  const known = byPattern.get(key);
  if (known) return known;
  const made = fc.stringMatching(pattern);
  byPattern.set(key, made);
  return made;
}

/**
 * Any one code point but a lone surrogate: what fc.string's unit 'binary' gives, without its cost.
 * That unit maps all 1.1 million code points back to indexes the first time a string of it is built
 * (0.3 s on a quiet machine, 2.5-3.5 s at load 15: alone most of vitest's 5 s for one test).
 */
const anyCodePoint = fc
  .oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
  .map((codePoint) => String.fromCodePoint(codePoint));

/**
 * Text of `minLength`..`maxLength` code points (as JSON Schema counts): mostly printable ASCII,
 * sometimes any code point (zod counts UTF-16 units, so an astral one may make it too long there).
 */
function text(minLength = 0, maxLength = minLength + 40): fc.Arbitrary<string> {
  const bounds = { minLength, maxLength };
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string(bounds) },
      { weight: 1, arbitrary: fc.string({ ...bounds, unit: anyCodePoint }) },
    )
    .filter(harmless);
}

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDate = fc
  .integer({ min: Date.UTC(1900, 0, 1) / DAY_MS, max: Date.UTC(2200, 0, 1) / DAY_MS })
  .map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema, 'minLength') ?? 0;
  const maxLength = num(schema, 'maxLength');
  const fits = (value: string) => value.length >= minLength && (maxLength === undefined || value.length <= maxLength);
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  // A date's pattern (zod's, leap years and all) is slow to generate from: dates are made as dates.
  if (schema.format === 'date') return isoDate.filter((value) => fits(value) && (pattern?.test(value) ?? true));
  if (pattern) return matching(pattern).filter(fits);
  return text(minLength, Math.min(maxLength ?? minLength + 40, minLength + 300));
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = num(schema, 'exclusiveMinimum');
  const exclusiveMax = num(schema, 'exclusiveMaximum');
  const step = num(schema, 'multipleOf');
  let min = num(schema, 'minimum') ?? exclusiveMin ?? -MAX_SAFE;
  let max = num(schema, 'maximum') ?? exclusiveMax ?? MAX_SAFE;
  if (integer || step !== undefined) {
    const unit = step ?? 1;
    if (exclusiveMin !== undefined) min = exclusiveMin + unit;
    if (exclusiveMax !== undefined) max = exclusiveMax - unit;
    const low = BigInt(Math.ceil(Math.max(min, -MAX_SAFE) / unit));
    const high = BigInt(Math.floor(Math.min(max, MAX_SAFE) / unit));
    // Mostly small figures near the low end (where real inputs are), sometimes anywhere in range, and
    // sometimes just past PostgreSQL's integer, where every id column ends: an id schema without that
    // bound let `"agent_id":8589934592` reach the database, a 500 (audit 2026-11-26, finding 13).
    const near = high - low > 1_000_000n ? low + 1_000_000n : high;
    const edges = [2_147_483_647n, 2_147_483_648n, 8_589_934_592n, -2_147_483_649n].filter(
      (edge) => edge >= low && edge <= high,
    );
    return fc
      .oneof(
        { weight: 3, arbitrary: fc.bigInt({ min: low, max: near }) },
        fc.bigInt({ min: low, max: high }),
        ...(edges.length > 0 ? [fc.constantFrom(...edges)] : []),
      )
      .map((k) => Number(k) * unit);
  }
  const anywhere = fc.double({
    min,
    max,
    minExcluded: exclusiveMin !== undefined,
    maxExcluded: exclusiveMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
  // Mostly whole figures as people type them (dollars, percents), so refinements the document cannot
  // show (a dollar amount's cents) let requests through to the handler; sometimes any double.
  const low = Math.max(Math.ceil(min), 0);
  const high = Math.min(Math.floor(max), 2_000_000);
  const whole = fc.integer({ min: low, max: high }).filter((value) => value !== exclusiveMin && value !== exclusiveMax);
  return low <= high ? fc.oneof({ weight: 3, arbitrary: whole }, anywhere) : anywhere;
}

function objectOf(schema: JsonSchema, hints: Hints | undefined): fc.Arbitrary<Record<string, unknown>> {
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  const minProperties = num(schema, 'minProperties') ?? 0;
  const extra = schema.additionalProperties;
  if (properties.length === 0 && extra !== undefined && extra !== false) {
    const keys = sub(schema, 'propertyNames');
    return fc.dictionary(keys ? stringOf(keys) : text(1, 20), validOf(schemaRecord.parse(extra), hints), {
      minKeys: minProperties,
      maxKeys: minProperties + 4,
    });
  }
  const model = Object.fromEntries(
    properties.map(([name, property]) => {
      const hinted = hints?.(name);
      const own = validOf(property, hints);
      return [name, hinted ? fc.oneof({ weight: 4, arbitrary: hinted }, own) : own];
    }),
  );
  return fc
    .record(model, { requiredKeys: [...required].filter((name) => name in model) })
    .filter((value) => Object.keys(value).length >= minProperties);
}

/** Values `schema` accepts. `hints` mixes in values for properties by name. */
export function validOf(schema: JsonSchema, hints?: Hints): fc.Arbitrary<unknown> {
  checkKeywords(schema);
  if ('const' in schema) return fc.constant(schema.const);
  const values = z.array(z.unknown()).safeParse(schema.enum);
  if (values.success) return fc.constantFrom(...values.data);
  const allOf = subs(schema, 'allOf');
  if (allOf) return validOf(merged(schema, allOf), hints);
  const branches = subs(schema, 'anyOf') ?? subs(schema, 'oneOf');
  if (branches) return fc.oneof(...branches.map((branch) => validOf(branch, hints)));
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 }).filter((value) => harmless(JSON.stringify(value)));
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringOf(schema);
        case 'integer':
          return numberOf(schema, true);
        case 'number':
          return numberOf(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const items = sub(schema, 'items');
          const minLength = num(schema, 'minItems') ?? 0;
          const maxLength = Math.min(num(schema, 'maxItems') ?? minLength + 5, minLength + 5);
          return fc.array(items ? validOf(items, hints) : fc.jsonValue({ maxDepth: 1 }), { minLength, maxLength });
        }
        case 'object':
          return objectOf(schema, hints);
        default:
          throw new Error(`schema-arbitrary: unknown type ${type}`);
      }
    }),
  );
}

/** A value `schema` refuses, and how it was broken. */
export interface Invalid {
  value: unknown;
  broken: string;
}

/** One MB of text: over every limit. */
export const HUGE = 'x'.repeat(1024 * 1024);

/** One of each JSON type: the wrong ones for a schema are those it does not allow. */
const SAMPLES: readonly [string, unknown][] = [
  ['string', 'fuzz'],
  ['integer', 7],
  ['number', 2.5],
  ['boolean', true],
  ['null', null],
  ['array', [1, 'two']],
  ['object', { nested: { deep: true } }],
];

/** A value of a type `types` does not allow (none when they allow every type). */
function wrongType(types: string[]): fc.Arbitrary<Invalid>[] {
  const allowed = new Set(types.includes('number') ? [...types, 'integer'] : types);
  const wrong = SAMPLES.filter(([type]) => !allowed.has(type));
  return types.length > 0 && wrong.length > 0
    ? [fc.constantFrom(...wrong).map(([type, value]) => ({ value, broken: `a ${type} instead` }))]
    : [];
}

/** Ways to break one value of `schema`; of anyOf/oneOf, only a type none of the branches takes. */
function breakers(schema: JsonSchema): fc.Arbitrary<Invalid>[] {
  const branches = subs(schema, 'anyOf') ?? subs(schema, 'oneOf');
  if (branches) {
    const types = branches.map(typesOf);
    return types.some((list) => list.length === 0) ? [] : wrongType(types.flat());
  }
  const types = typesOf(schema);
  const found = wrongType(types);
  const maxLength = num(schema, 'maxLength');
  if (types.includes('string') && maxLength !== undefined) {
    found.push(
      fc
        .oneof(
          fc.integer({ min: maxLength + 1, max: maxLength + 50 }).map((length) => 'y'.repeat(length)),
          fc.constant(HUGE),
        )
        .map((value) => ({ value, broken: `${value.length} characters (at most ${maxLength})` })),
    );
  }
  const minLength = num(schema, 'minLength');
  if (types.includes('string') && minLength !== undefined && minLength > 0)
    found.push(fc.constant({ value: 'z'.repeat(minLength - 1), broken: `shorter than ${minLength}` }));
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern);
    found.push(
      fc
        .constantFrom('../etc/passwd', 'a%00b', '😀', ' ', 'A B', '<script>', "x' OR '1'='1", '2026-13-45')
        .filter((value) => !pattern.test(value))
        .map((value) => ({ value, broken: `not matching ${String(schema.pattern)}` })),
    );
  }
  if (Array.isArray(schema.enum) || 'const' in schema)
    found.push(fc.constant({ value: 'not-one-of-them', broken: 'not one of the allowed values' }));
  const numeric = types.includes('integer') || types.includes('number');
  if (numeric) {
    const below = num(schema, 'minimum') ?? num(schema, 'exclusiveMinimum');
    const above = num(schema, 'maximum') ?? num(schema, 'exclusiveMaximum');
    if (below !== undefined)
      found.push(fc.constantFrom(below - 1, below - 0.5, -1e308).map((value) => ({ value, broken: `below ${below}` })));
    if (above !== undefined)
      found.push(fc.constantFrom(above + 1, above + 0.5, 1e308).map((value) => ({ value, broken: `above ${above}` })));
    if (types.includes('integer') && !types.includes('number'))
      found.push(fc.constantFrom(1.5, -0.25).map((value) => ({ value, broken: 'not an integer' })));
  }
  const maxItems = num(schema, 'maxItems');
  if (types.includes('array') && maxItems !== undefined)
    found.push(fc.constant({ value: Array.from({ length: maxItems + 1 }, () => 1), broken: `over ${maxItems} items` }));
  const minItems = num(schema, 'minItems');
  if (types.includes('array') && minItems !== undefined && minItems > 0)
    found.push(fc.constant({ value: [], broken: `under ${minItems} items` }));
  return found;
}

/** Every place in an object schema's value that can be broken, as a path of property names. */
function sites(schema: JsonSchema, path: string[] = []): { path: string[]; schema: JsonSchema; required: boolean }[] {
  return propertiesOf(schema).flatMap(([name, property]) => {
    const here = { path: [...path, name], schema: property, required: requiredOf(schema).has(name) };
    const nested = typesOf(property).includes('object') ? sites(property, here.path) : [];
    return [here, ...nested];
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `value` with `change` made to the object holding the last key of `path`. */
function withAt(value: unknown, path: string[], change: (parent: Record<string, unknown>, key: string) => void) {
  const copy: unknown = structuredClone(value);
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = isRecord(parent) ? parent[key] : undefined;
  const last = path.at(-1);
  if (last !== undefined && isRecord(parent)) change(parent, last);
  return copy;
}

/**
 * Values `schema` refuses: of an object, a valid value with one field broken (dropped when
 * required, or given a value its own schema refuses) or an unknown field where none is allowed;
 * of anything else, a value its schema refuses. Of anyOf/oneOf, one branch's (which another
 * branch may still accept: a check must ask the schema, as the unit test does).
 */
export function invalidOf(schema: JsonSchema, hints?: Hints): fc.Arbitrary<Invalid> {
  checkKeywords(schema);
  const allOf = subs(schema, 'allOf');
  if (allOf) return invalidOf(merged(schema, allOf), hints);
  const branches = subs(schema, 'anyOf') ?? subs(schema, 'oneOf');
  if (branches) return fc.oneof(...branches.map((branch) => invalidOf(branch, hints)));
  const own = breakers(schema);
  if (!typesOf(schema).includes('object') || propertiesOf(schema).length === 0) {
    if (own.length === 0) throw new Error('schema-arbitrary: nothing to break in this schema');
    return fc.oneof(...own);
  }
  const places = sites(schema).filter((site) => site.required || breakers(site.schema).length > 0);
  // One arbitrary per place, built here once: inside a chain() they were built again for every value
  // drawn, and some cost tens of milliseconds to build (see `once`).
  const broken = places.map((site) => {
    const ways: fc.Arbitrary<Invalid>[] = [];
    const name = site.path.join('.');
    if (site.required) ways.push(fc.constant({ value: undefined, broken: `${name} dropped` }));
    ways.push(
      ...breakers(site.schema).map((way) =>
        way.map(({ value, broken: why }) => ({ value, broken: `${name}: ${why}` })),
      ),
    );
    return fc.tuple(objectWith(schema, site.path, hints), fc.oneof(...ways)).map(([value, way]) => ({
      value: withAt(value, site.path, (parent, key) => {
        if (way.value === undefined) delete parent[key];
        else parent[key] = way.value;
      }),
      broken: way.broken,
    }));
  });
  const ways = [fc.oneof(...broken), ...own];
  if (schema.additionalProperties === false)
    ways.push(
      objectOf(schema, hints).map((value) => ({
        value: { ...value, fuzz_unknown_field: 1 },
        broken: 'an unknown field',
      })),
    );
  return fc.oneof(...ways);
}

/** A valid object whose every object on `path` is there (so the broken field has a parent). */
function objectWith(schema: JsonSchema, path: string[], hints: Hints | undefined): fc.Arbitrary<unknown> {
  if (path.length <= 1) return objectOf(schema, hints);
  const [head = '', ...rest] = path;
  const forced = { ...schema, required: [...requiredOf(schema), head] };
  const child = propertiesOf(schema).find(([name]) => name === head)?.[1] ?? {};
  return fc
    .tuple(objectOf(forced, hints), objectWith(child, rest, hints))
    .map(([value, inner]) => ({ ...value, [head]: inner }));
}
