/**
 * invalidOf(schema): values the schema refuses, each with what was broken (a required field
 * dropped, a wrong type, a string too long or huge, a number out of range, a pattern or enum
 * missed, an unknown field), at any depth of the value.
 */
import fc from 'fast-check';
import {
  checkKeywords,
  type Hints,
  type JsonSchema,
  merged,
  num,
  propertiesOf,
  requiredOf,
  subs,
  typesOf,
} from './keywords.ts';
import { objectOf } from './valid.ts';

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
