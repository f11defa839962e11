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
 *
 * This module is the entry the fuzz imports; its parts are under schema-arbitrary/: reading the
 * schemas (keywords.ts), leaks (leaks.ts), valid values (valid.ts) and invalid ones (invalid.ts).
 */
export { HUGE, invalidOf, type Invalid } from './schema-arbitrary/invalid.ts';
export type { Hints, JsonSchema } from './schema-arbitrary/keywords.ts';
export { leaks } from './schema-arbitrary/leaks.ts';
export { validOf } from './schema-arbitrary/valid.ts';
