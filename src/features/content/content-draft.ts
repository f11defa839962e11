/**
 * The /admin/content form's draft: the nested content flattened to text fields named by their
 * path ("claims.0.figure", "testimonial.quote"), the names zod gives each field's error, so the
 * settings-form hook binds inputs and errors as it does for flat forms. Lists are edited here.
 */
import type { SiteContent } from './site-content-schema.ts';

export type ContentDraft = Record<string, string>;

/** The content as draft fields. */
export function toDraft(content: SiteContent): ContentDraft {
  const draft: ContentDraft = {};
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') draft[path] = value;
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}.${index}`));
    else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
    }
  };
  walk(content, '');
  return draft;
}

type Tree = { [key: string]: Tree | string };

/** The draft as the JSON the API takes: numbered fields become lists, in order. */
export function fromDraft(draft: ContentDraft): unknown {
  const root: Tree = {};
  for (const [path, value] of Object.entries(draft)) {
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    let node = root;
    for (const key of keys) {
      const child = node[key];
      const next: Tree = typeof child === 'object' ? child : {};
      node[key] = next;
      node = next;
    }
    node[last] = value;
  }
  const toJson = (node: Tree | string): unknown => {
    if (typeof node === 'string') return node;
    const entries = Object.entries(node);
    if (entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key))) {
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => toJson(item));
    }
    return Object.fromEntries(entries.map(([key, item]) => [key, toJson(item)]));
  };
  return toJson(root);
}

/** A list of the draft: where it is ("claims") and the fields of each item. */
export interface DraftList {
  path: string;
  fields: readonly string[];
}

export const itemCount = (draft: ContentDraft, list: DraftList): number => {
  let count = 0;
  while (`${list.path}.${count}.${list.fields[0]}` in draft) count += 1;
  return count;
};

/** The draft with the list's items rewritten to `items` (each a value per field). */
function withItems(draft: ContentDraft, list: DraftList, items: Record<string, string>[]): ContentDraft {
  const others = Object.entries(draft).filter(([key]) => !key.startsWith(`${list.path}.`));
  const listed = items.flatMap((item, index) =>
    list.fields.map((field): [string, string] => [`${list.path}.${index}.${field}`, item[field] ?? '']),
  );
  return Object.fromEntries([...others, ...listed]);
}

const itemsOf = (draft: ContentDraft, list: DraftList): Record<string, string>[] =>
  Array.from({ length: itemCount(draft, list) }, (_, index) =>
    Object.fromEntries(list.fields.map((field) => [field, draft[`${list.path}.${index}.${field}`] ?? ''])),
  );

export const addItem = (draft: ContentDraft, list: DraftList): ContentDraft =>
  withItems(draft, list, [...itemsOf(draft, list), {}]);

export const removeItem = (draft: ContentDraft, list: DraftList, index: number): ContentDraft =>
  withItems(
    draft,
    list,
    itemsOf(draft, list).filter((_, at) => at !== index),
  );

/** The item at `index` swapped with its neighbour `by` places away (-1 up, 1 down). */
export function moveItem(draft: ContentDraft, list: DraftList, index: number, by: -1 | 1): ContentDraft {
  const items = itemsOf(draft, list);
  const [item, other] = [items[index], items[index + by]];
  if (!item || !other) return draft;
  items[index] = other;
  items[index + by] = item;
  return withItems(draft, list, items);
}
