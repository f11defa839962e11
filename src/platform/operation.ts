/**
 * One API operation, declared once in the feature that owns it (decision 0054): its method and path,
 * who may call it, the zod schemas of its params, query and body, its answers, a summary, and its
 * handler. From the declarations alone come the routes each group registers (a static segment before
 * a parameter, whatever the order of declaration), their 405s, the access check, the OpenAPI document,
 * the generated table the app dispatches by at a cold start (src/app/api-routes.generated.ts), and
 * the lists the authorization matrix and the fuzz suite walk.
 *
 * A handler reads its inputs through `input`, which parses them with the declaration's own schemas
 * when the handler asks: the handler keeps the order of its checks (an admin route answers 403 before
 * it says what a body lacks), and the schema the document shows is the one the request meets.
 */
import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { StoredSize } from '../ui/uploads.ts';
import { parseOrThrow, readJson, route, type BodyLimit } from './http.ts';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** public: anyone; agent: any signed-in agent (admins too); admin: signed-in admins only. */
export type Access = 'public' | 'agent' | 'admin';

/** What one media type of a request body holds: one of `schemas`, and files as form parts. */
export interface RequestContent {
  schemas?: readonly z.core.$ZodType[];
  files?: readonly string[];
  description?: string;
}

/** The answer an operation gives when it succeeds. */
export interface SuccessAnswer {
  status: 200 | 201 | 202 | 303;
  description: string;
  schema?: z.core.$ZodType;
  media?: string;
  /** Headers of the answer a client reads, by name: what each says. */
  headers?: Readonly<Record<string, string>>;
}

/** What the document and the checks read of an operation: everything but its handler. */
export interface OperationDoc {
  method: Method;
  /** As the route registers it: `/api/estimates/:uuid`. */
  path: string;
  access: Access;
  summary: string;
  tag: string;
  params?: z.core.$ZodType;
  query?: z.core.$ZodType;
  /** The one JSON body `input.body()` parses. */
  json?: z.core.$ZodType;
  /** Any other body, by media type, which the handler reads itself. Without `checksType: false`, any other Content-Type answers 415. */
  body?: Readonly<Record<string, RequestContent>>;
  checksType?: false;
  success: SuccessAnswer;
  /** Statuses besides the ones the access, the inputs and the body imply (see the OpenAPI document). */
  errors?: readonly number[];
  /** False for the one answer that reads no database, so cannot be 503 for want of it. */
  readsDatabase?: false;
  /**
   * An image upload: its whole body is within MAX_UPLOAD_BODY_BYTES (decision 0027), and each image
   * it carries is stored at most this large (named by its field), which the document states.
   */
  uploads?: Readonly<Record<string, StoredSize>>;
}

/** What `input` gives for an input the operation does not declare: nothing, as its accessor throws. */
type Undeclared = z.core.$ZodNever;

/** A request's inputs, parsed with the operation's schemas when the handler asks. */
export interface OperationInput<
  Params extends z.core.$ZodType,
  Query extends z.core.$ZodType,
  Json extends z.core.$ZodType,
> {
  /** The path's parameters; 400 with a message per field when they do not fit. */
  params(): z.output<Params>;
  /** The path's parameters, or undefined when they do not fit (an id that cannot exist is a 404). */
  validParams(): z.output<Params> | undefined;
  /** The query's parameters; 400 when they do not fit. */
  query(): z.output<Query>;
  /** The JSON body (415, 413 and 400 as readJson answers), within `limit` if given. */
  body(limit?: BodyLimit): Promise<z.output<Json>>;
}

/** An operation as declared: what it is, and its handler. */
export interface Declaration<
  Deps,
  Params extends z.core.$ZodType,
  Query extends z.core.$ZodType,
  Json extends z.core.$ZodType,
> extends Omit<OperationDoc, 'params' | 'query' | 'json'> {
  params?: Params;
  query?: Query;
  json?: Json;
  handler: (c: Context, deps: Deps, input: OperationInput<Params, Query, Json>) => Response | Promise<Response>;
}

/** A declared operation: its document, and how it answers a request with its group's dependencies. */
export interface Operation<Deps> extends OperationDoc {
  answer: (c: Context, deps: Deps) => Response | Promise<Response>;
}

/** Declares one operation of a group whose handlers share `Deps`. */
export type Declare<Deps> = <
  Params extends z.core.$ZodType = Undeclared,
  Query extends z.core.$ZodType = Undeclared,
  Json extends z.core.$ZodType = Undeclared,
>(
  declaration: Declaration<Deps, Params, Query, Json>,
) => Operation<Deps>;

/** Parses `value` with `schema`, or throws: the operation uses an input it did not declare (a programming error). */
function declared<Schema extends z.core.$ZodType>(
  schema: Schema | undefined,
  what: string,
  where: Pick<OperationDoc, 'method' | 'path'>,
): Schema {
  if (!schema) throw new Error(`${where.method} ${where.path} reads ${what} it does not declare`);
  return schema;
}

function declare<Deps, Params extends z.core.$ZodType, Query extends z.core.$ZodType, Json extends z.core.$ZodType>(
  declaration: Declaration<Deps, Params, Query, Json>,
): Operation<Deps> {
  const { handler, ...doc } = declaration;
  return {
    ...doc,
    answer: (c, deps) =>
      handler(c, deps, {
        params: () => parseOrThrow(declared(doc.params, 'params', doc), c.req.param()),
        validParams: () => {
          const parsed = z.safeParse(declared(doc.params, 'params', doc), c.req.param());
          return parsed.success ? parsed.data : undefined;
        },
        query: () => parseOrThrow(declared(doc.query, 'a query', doc), c.req.query()),
        body: (limit) => readJson(c, declared(doc.json, 'a JSON body', doc), limit),
      }),
  };
}

/** A feature's operations, and how to build them into an app once its dependencies are given. */
export interface ApiGroup<Input> {
  readonly operations: readonly OperationDoc[];
  build: (input: Input) => Promise<Hono>;
}

/**
 * A feature's operations: `setup` makes what their handlers share from what the composition root
 * gives (src/app/api-groups.server.ts), once, when the group is first asked for.
 */
export function apiGroup<Input, Deps>(
  setup: (input: Input) => Deps | Promise<Deps>,
  operations: (op: Declare<Deps>) => readonly Operation<Deps>[],
): ApiGroup<Input> {
  const declaredOperations = operations(declare);
  return {
    operations: declaredOperations,
    async build(input) {
      const deps = await setup(input);
      const app = new Hono();
      for (const [path, here] of byPath(declaredOperations)) {
        route(
          app,
          path,
          Object.fromEntries(here.map((operation) => [operation.method, (c: Context) => operation.answer(c, deps)])),
        );
      }
      return app;
    },
  };
}

/**
 * Which of two paths a request matching both goes to: at the first segment where they differ, a
 * static segment wins over a parameter (`/estimates/reverse` before `/estimates/:uuid`). Negative
 * when `a` comes first.
 */
export function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const x = left[index];
    const y = right[index];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xParam = x.startsWith(':');
    const yParam = y.startsWith(':');
    if (xParam !== yParam) return xParam ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** Operations by path, the paths in order of precedence (comparePaths), each path's methods in declared order. */
export function byPath<Op extends Pick<OperationDoc, 'path'>>(operations: readonly Op[]): [string, Op[]][] {
  const paths = new Map<string, Op[]>();
  for (const operation of operations) paths.set(operation.path, [...(paths.get(operation.path) ?? []), operation]);
  return [...paths].sort(([a], [b]) => comparePaths(a, b));
}

/** A JSON body that is one of `schemas` (for the document; the handler reads it itself). */
export const json = (...schemas: z.core.$ZodType[]): Record<string, RequestContent> => ({
  'application/json': { schemas },
});
export const ok = (description: string, schema?: z.core.$ZodType) => ({ status: 200, description, schema }) as const;
export const created = (description: string, schema?: z.core.$ZodType) =>
  ({ status: 201, description, schema }) as const;
export const accepted = (description: string, schema?: z.core.$ZodType) =>
  ({ status: 202, description, schema }) as const;
