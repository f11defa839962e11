/**
 * Reading the JSON Schemas of the document: the keywords the arbitraries handle (an unknown one
 * throws, so a new one in the document is noticed), a schema's parts, types and required fields,
 * and allOf merged into one schema.
 */
import fc from 'fast-check';
import * as z from 'zod';

export type JsonSchema = Readonly<Record<string, unknown>>;

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

export const schemaRecord = z.record(z.string(), z.unknown());
const schemaList = z.array(schemaRecord);
const optionalNumber = z.number().optional();
const stringList = z.array(z.string());

export const sub = (schema: JsonSchema, key: string): JsonSchema | undefined => {
  const value = schema[key];
  return value === undefined ? undefined : schemaRecord.parse(value);
};
export const subs = (schema: JsonSchema, key: string): JsonSchema[] | undefined => {
  const value = schema[key];
  return value === undefined ? undefined : schemaList.parse(value);
};
export const num = (schema: JsonSchema, key: string): number | undefined => optionalNumber.parse(schema[key]);
export const propertiesOf = (schema: JsonSchema): [string, JsonSchema][] =>
  Object.entries(z.record(z.string(), schemaRecord).parse(schema.properties ?? {}));
export const requiredOf = (schema: JsonSchema): Set<string> => new Set(stringList.parse(schema.required ?? []));
export const typesOf = (schema: JsonSchema): string[] => {
  const type = schema.type;
  if (type === undefined) return [];
  return typeof type === 'string' ? [type] : stringList.parse(type);
};

export function checkKeywords(schema: JsonSchema): void {
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`schema-arbitrary: unknown keyword ${key}`);
}

/** allOf as one schema: the document's allOf narrows one type in one branch, so merging them is exact. */
export const merged = (schema: JsonSchema, parts: JsonSchema[]): JsonSchema =>
  Object.fromEntries([...parts, schema].flatMap((part) => Object.entries(part)).filter(([key]) => key !== 'allOf'));
