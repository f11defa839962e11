/**
 * The generated OpenAPI document against the official OpenAPI 3.1 JSON Schema, through an outside
 * validator (@seriousme/openapi-schema-validator, decision 0033) rather than our own reading of the
 * specification: Redocly and Spectral users must be able to load the document as it is.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi.server.ts';
import { apiOperations } from './api-groups.server.ts';

describe('the OpenAPI document', () => {
  it('is valid against the OpenAPI 3.1 schema (no description on a Media Type Object, …)', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument(await apiOperations()));
    expect(validator.version).toBe('3.1');
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
