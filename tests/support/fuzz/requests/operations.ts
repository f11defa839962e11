/**
 * The operations of the OpenAPI document as the fuzz reads them: method, path, access, and the
 * schemas of the path parameters, query and body.
 */
import * as z from 'zod';
import { type JsonSchema } from '../schema-arbitrary.ts';

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

export const schema = z.record(z.string(), z.unknown());
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
