/**
 * The integrators' reference page (/developers/api) read from the OpenAPI document: the parts it
 * shows, parsed (the document is plain JSON), and each JSON Schema flattened into rows of fields
 * with their limits.
 */
import * as z from 'zod';

type JsonSchema = { [key: string]: unknown };
const jsonSchema: z.ZodType<JsonSchema> = z.record(z.string(), z.unknown());

const mediaSchema = z.object({ schema: jsonSchema });
const operationSchema = z.object({
  summary: z.string(),
  tags: z.array(z.string()).min(1),
  'x-access': z.enum(['public', 'agent', 'admin']),
  parameters: z.array(
    z.object({ name: z.string(), in: z.enum(['path', 'query']), required: z.boolean(), schema: jsonSchema }),
  ),
  requestBody: z.object({ content: z.record(z.string(), mediaSchema) }).optional(),
  responses: z.record(
    z.string(),
    z.object({ description: z.string(), content: z.record(z.string(), mediaSchema).optional() }),
  ),
});
const webhookSchema = z.object({
  post: z.object({
    summary: z.string(),
    description: z.string(),
    parameters: z.array(z.object({ name: z.string(), description: z.string() })),
    requestBody: z.object({ content: z.object({ 'application/json': mediaSchema }) }),
  }),
});
const documentSchema = z.object({
  info: z.object({ title: z.string(), description: z.string() }),
  tags: z.array(z.object({ name: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), operationSchema)),
  webhooks: z.record(z.string(), webhookSchema).default({}),
});

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  limits: string[];
}

export interface ReferenceOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  access: 'public' | 'agent' | 'admin';
  parameters: (FieldRow & { in: 'path' | 'query' })[];
  bodies: { media: string; description?: string; fields: FieldRow[] }[];
  responses: { status: string; description: string; media: string[] }[];
}

/** A webhook we send: its event, what it means, and its body's fields. */
export interface ReferenceWebhook {
  id: string;
  type: string;
  summary: string;
  fields: FieldRow[];
}

export interface ApiReference {
  title: string;
  description: string;
  groups: { tag: string; operations: ReferenceOperation[] }[];
  /** The webhooks (the document's `webhooks`): how every one is sent, its headers, and each event. */
  webhooks: { description: string; headers: { name: string; description: string }[]; events: ReferenceWebhook[] };
}

const PATTERN_SHOWN = 60;

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** A schema's limits as a reader says them: "at most 100 characters", "one of: a, b". */
function limitsOf(schema: JsonSchema): string[] {
  const limits: string[] = typeof schema.description === 'string' ? [schema.description] : [];
  const number = (key: string) => (typeof schema[key] === 'number' ? schema[key] : undefined);
  const minLength = number('minLength');
  const maxLength = number('maxLength');
  if (minLength !== undefined && minLength > 0) limits.push(`at least ${count(minLength, 'character')}`);
  if (maxLength !== undefined) limits.push(`at most ${count(maxLength, 'character')}`);
  const minimum = number('minimum') ?? number('exclusiveMinimum');
  const maximum = number('maximum') ?? number('exclusiveMaximum');
  if (minimum !== undefined) limits.push(`${schema.exclusiveMinimum === undefined ? '≥' : '>'} ${minimum}`);
  if (maximum !== undefined) limits.push(`${schema.exclusiveMaximum === undefined ? '≤' : '<'} ${maximum}`);
  const minItems = number('minItems');
  const maxItems = number('maxItems');
  if (minItems !== undefined) limits.push(`at least ${count(minItems, 'item')}`);
  if (maxItems !== undefined) limits.push(`at most ${count(maxItems, 'item')}`);
  if (Array.isArray(schema.enum))
    limits.push(`one of: ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`);
  if (schema.const !== undefined) limits.push(`exactly ${JSON.stringify(schema.const)}`);
  if (typeof schema.format === 'string' && schema.format !== 'binary') limits.push(`format: ${schema.format}`);
  else if (typeof schema.pattern === 'string' && schema.pattern.length <= PATTERN_SHOWN) {
    limits.push(`matches ${schema.pattern}`);
  }
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.additionalProperties === false) limits.push('no other fields');
  return limits;
}

/** The alternatives a schema allows (anyOf/oneOf), or the schema itself. */
function alternativesOf(schema: JsonSchema): JsonSchema[] {
  const list = z.array(jsonSchema).safeParse(schema.anyOf ?? schema.oneOf);
  return list.success ? list.data : [schema];
}

function typeOf(schema: JsonSchema): string {
  const alternatives = alternativesOf(schema);
  if (alternatives.length > 1) return [...new Set(alternatives.map(typeOf))].join(' or ');
  if (schema.format === 'binary') return 'file';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  return types
    .map((type) =>
      type === 'array' ? `array of ${typeOf(jsonSchema.safeParse(schema.items).data ?? {})}` : String(type),
    )
    .join(' or ');
}

/** An object schema's properties (of every allOf part and object alternative), with which are required. */
function propertiesOf(schema: JsonSchema): { properties: [string, JsonSchema][]; required: Set<string> } {
  const parts = [
    schema,
    ...z.array(jsonSchema).catch([]).parse(schema.allOf),
    ...alternativesOf(schema).filter((part) => part !== schema),
  ];
  const properties: [string, JsonSchema][] = [];
  const required = new Set<string>();
  for (const part of parts) {
    properties.push(...Object.entries(z.record(z.string(), jsonSchema).catch({}).parse(part.properties)));
    for (const name of z.array(z.string()).catch([]).parse(part.required)) required.add(name);
  }
  return { properties, required };
}

/** Every field of a body schema, nested ones as `details.liens[].payoff`. */
export function fieldsOf(schema: JsonSchema, prefix = ''): FieldRow[] {
  const { properties, required } = propertiesOf(schema);
  const rows: FieldRow[] = [];
  const seen = new Set<string>();
  for (const [name, property] of properties) {
    if (seen.has(name)) continue;
    seen.add(name);
    const path = `${prefix}${name}`;
    const objectAlternative = alternativesOf(property).find((part) => part.type === 'object');
    const items = jsonSchema.safeParse(property.items).data;
    rows.push({ name: path, type: typeOf(property), required: required.has(name), limits: limitsOf(property) });
    if (objectAlternative) rows.push(...fieldsOf(objectAlternative, `${path}.`));
    else if (items?.type === 'object') rows.push(...fieldsOf(items, `${path}[].`));
  }
  return rows;
}

/** The page's view of the document, operations grouped by tag in the document's order. */
export function apiReference(document: unknown): ApiReference {
  const parsed = documentSchema.parse(document);
  const groups = new Map<string, ReferenceOperation[]>(parsed.tags.map(({ name }) => [name, []]));
  for (const [path, item] of Object.entries(parsed.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const [tag = ''] = operation.tags;
      groups.get(tag)?.push({
        id: `${method}-${path}`.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, ''),
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        access: operation['x-access'],
        parameters: operation.parameters.map((parameter) => ({
          name: parameter.name,
          in: parameter.in,
          type: typeOf(parameter.schema),
          required: parameter.required,
          limits: limitsOf(parameter.schema),
        })),
        bodies: Object.entries(operation.requestBody?.content ?? {}).map(([media, content]) => ({
          media,
          // A media type's own words are its schema's description (OpenAPI 3.1 has no other place).
          description: typeof content.schema.description === 'string' ? content.schema.description : undefined,
          fields: fieldsOf(content.schema),
        })),
        responses: Object.entries(operation.responses).map(([status, response]) => ({
          status,
          description: response.description,
          media: Object.keys(response.content ?? {}),
        })),
      });
    }
  }
  const webhooks = Object.entries(parsed.webhooks);
  const [first] = webhooks;
  return {
    title: parsed.info.title,
    description: parsed.info.description,
    groups: [...groups].map(([tag, operations]) => ({ tag, operations })),
    webhooks: {
      description: first?.[1].post.description ?? '',
      headers: first?.[1].post.parameters ?? [],
      events: webhooks.map(([type, { post }]) => ({
        id: `webhook-${type}`.replace(/[^a-z0-9]+/gi, '-'),
        type,
        summary: post.summary,
        fields: fieldsOf(post.requestBody.content['application/json'].schema),
      })),
    },
  };
}
