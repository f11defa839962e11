/**
 * The schema → fast-check converter, checked by Ajv (not by itself): values of validOf are valid
 * and values of invalidOf invalid, for every request schema of our OpenAPI document and for each
 * keyword on its own.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { openApiDocument } from '../../../src/app/openapi.server.ts';
import { apiOperations } from '../../../src/app/api-groups.server.ts';
import { HUGE, invalidOf, leaks, validOf, type JsonSchema } from './schema-arbitrary.ts';

const DOCUMENT = openApiDocument(await apiOperations());

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const record = z.record(z.string(), z.unknown());

/** Every request schema of the document: parameters and bodies, by a readable name. */
function requestSchemas(): [string, JsonSchema][] {
  const paths = z.record(z.string(), z.record(z.string(), record)).parse(DOCUMENT.paths);
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) => {
      const parameters = z
        .array(z.object({ name: z.string(), in: z.string(), schema: record }))
        .parse(operation.parameters ?? []);
      const content = z
        .record(z.string(), z.object({ schema: record }))
        .parse(record.parse(operation.requestBody ?? { content: {} }).content);
      return [
        ...parameters.map(({ name, in: where, schema }): [string, JsonSchema] => [
          `${method} ${path} ${where} ${name}`,
          schema,
        ]),
        ...Object.entries(content)
          .filter(([, media]) => media.schema.format !== 'binary')
          .map(([type, media]): [string, JsonSchema] => [`${method} ${path} ${type}`, media.schema]),
      ];
    }),
  );
}

/** The schemas invalidOf breaks as a whole: each anyOf branch on its own (another may accept a value). */
const branchesOf = (schema: JsonSchema): JsonSchema[] =>
  Array.isArray(schema.anyOf) ? z.array(record).parse(schema.anyOf).flatMap(branchesOf) : [schema];

const breakable = (schema: JsonSchema) =>
  schema.type !== undefined || schema.allOf !== undefined || schema.enum !== undefined || 'const' in schema;

/**
 * Each test's work is bounded (a fixed number of runs; values at most 1 MB, checked by Ajv in a few
 * milliseconds each), and measured: under 0.5 s on a quiet machine, under 3 s at load 18 on two
 * cores. vitest's default 5 s was a clock a slow machine missed; this bound only catches a hang.
 */
const HANG = { timeout: 30_000 };

describe('validOf and invalidOf on the OpenAPI document', HANG, () => {
  it.each(requestSchemas())('%s', (_name, schema) => {
    const validate = ajv.compile(schema);
    fc.assert(
      fc.property(validOf(schema), (value) => {
        expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }),
      { numRuns: 60 },
    );
    for (const branch of branchesOf(schema).filter(breakable)) {
      const validateBranch = ajv.compile(branch);
      fc.assert(
        fc.property(invalidOf(branch), ({ value, broken }) => {
          expect(validateBranch(value), `${broken}: ${JSON.stringify(value).slice(0, 200)}`).toBe(false);
        }),
        { numRuns: 60 },
      );
    }
  });
});

describe('each keyword', HANG, () => {
  const schemas: [string, JsonSchema][] = [
    ['const', { type: 'boolean', const: true }],
    ['enum', { type: 'string', enum: ['cash', 'conventional'] }],
    ['string lengths', { type: 'string', minLength: 2, maxLength: 5 }],
    ['pattern', { type: 'string', pattern: '^[a-z0-9]+$', maxLength: 64 }],
    ['integer range', { type: 'integer', exclusiveMinimum: 0, maximum: 9007199254740991 }],
    ['number range', { type: 'number', minimum: 0.5, maximum: 2 }],
    ['exclusive maximum', { type: 'number', exclusiveMaximum: 100 }],
    ['multipleOf', { type: 'number', minimum: 0, maximum: 1000, multipleOf: 0.25 }],
    ['nullable', { type: ['string', 'null'], maxLength: 3 }],
    ['array', { type: 'array', items: { type: 'integer', minimum: 1, maximum: 9 }, minItems: 2, maxItems: 4 }],
    [
      'strict object',
      {
        type: 'object',
        properties: { a: { type: 'string', minLength: 1 }, b: { type: 'integer', minimum: 0 } },
        required: ['a'],
        additionalProperties: false,
      },
    ],
    [
      'nested object',
      {
        type: 'object',
        properties: { inner: { type: 'object', properties: { n: { type: 'number', maximum: 3 } }, required: ['n'] } },
        required: ['inner'],
      },
    ],
    ['record', { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } }],
    [
      'minProperties',
      { type: 'object', properties: { x: { type: 'boolean' } }, additionalProperties: false, minProperties: 1 },
    ],
    ['allOf', { allOf: [{ type: 'number', minimum: 0, maximum: 20 }, { type: 'number' }] }],
  ];

  it.each(schemas)('%s: valid values pass and broken ones fail', (_name, schema) => {
    const validate = ajv.compile(schema);
    fc.assert(
      fc.property(validOf(schema), (value) => validate(value)),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(invalidOf(schema), ({ value }) => !validate(value)),
      { numRuns: 200 },
    );
  });

  it('uses the hints for named properties, besides random values', () => {
    const schema = { type: 'object', properties: { agent_slug: { type: 'string' } }, required: ['agent_slug'] };
    const values = fc.sample(
      validOf(schema, (name) => (name === 'agent_slug' ? fc.constant('jamie') : undefined)),
      { numRuns: 200, seed: 7 },
    );
    const slugs = values.map((value) => record.parse(value).agent_slug);
    expect(slugs).toContain('jamie');
    expect(slugs.some((slug) => slug !== 'jamie')).toBe(true);
  });

  it('breaks strings with a 1 MB one sometimes, and writes no text that looks like a leak', () => {
    const broken = fc.sample(invalidOf({ type: 'string', maxLength: 10 }), { numRuns: 200, seed: 3 });
    expect(broken.some(({ value }) => value === HUGE)).toBe(true);
    const texts = fc.sample(validOf({ type: 'string', maxLength: 300 }), { numRuns: 2000, seed: 5 });
    expect(texts.filter((value) => leaks(String(value)))).toEqual([]);
  });

  it('refuses a keyword it does not know', () => {
    expect(() => validOf({ type: 'string', contentEncoding: 'base64' })).toThrow(/unknown keyword contentEncoding/);
  });
});
