/**
 * validOf(schema): values the schema accepts (strings by length, pattern and format, numbers in
 * range, objects with their required fields and some optional ones, arrays, enums, anyOf/oneOf),
 * with hints mixed in for named properties; text never looks like a leak.
 */
import fc from 'fast-check';
import * as z from 'zod';
import {
  checkKeywords,
  type Hints,
  type JsonSchema,
  merged,
  num,
  propertiesOf,
  requiredOf,
  schemaRecord,
  sub,
  subs,
  typesOf,
} from './keywords.ts';
import { leaks } from './leaks.ts';

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

export function objectOf(schema: JsonSchema, hints: Hints | undefined): fc.Arbitrary<Record<string, unknown>> {
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
