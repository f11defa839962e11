/**
 * Fuzz requests for every operation of the OpenAPI document (src/app/openapi.server.ts): valid
 * ones from its schemas (path parameters naming real fixtures sometimes), and invalid ones (a body
 * with a field dropped, of a wrong type, too long or 1 MB, out of range, an unknown field; malformed
 * JSON, an empty body, a wrong Content-Type, bytes that are not UTF-8; bad path parameters and
 * query values, repeated query keys), each sent as a caller the operation's access allows.
 *
 * This module is the entry the fuzz imports (every case of an operation); its parts are under
 * requests/: the operations (operations.ts), a case (fuzz-case.ts), the fixed bad inputs
 * (bad-inputs.ts), the fixtures and hints (hints.ts), the wire encoding (encoding.ts).
 */
import fc from 'fast-check';
import { invalidOf, validOf, type JsonSchema } from './schema-arbitrary.ts';
import { BAD_PATH_VALUES, BAD_QUERY_VALUES, GARBAGE_FILES, RAW_BODIES } from './requests/bad-inputs.ts';
import { encodeBody, filePartsOf, rawUpload, type SentFile, stringOfValue, withQuery } from './requests/encoding.ts';
import { type FuzzCase } from './requests/fuzz-case.ts';
import { type Fixtures, hintsFor } from './requests/hints.ts';
import { type Access, type Caller, type DocOperation } from './requests/operations.ts';

export { type ImageSamples } from './requests/bad-inputs.ts';
export { describeCase, type FuzzCase } from './requests/fuzz-case.ts';
export { type Fixtures } from './requests/hints.ts';
export { operationsOf, type Access, type Caller, type DocOperation } from './requests/operations.ts';

/** The callers an access allows (the fuzz sends as them; other callers are the matrix's). */
const CALLERS_OF: Record<Access, readonly Caller[]> = {
  public: ['signed out', 'signed out', 'agent A', 'admin'],
  agent: ['agent A', 'agent A', 'admin'],
  admin: ['admin'],
};

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
