// The diagram in docs/architecture.md: which feature imports which, read off the code by
// dependency-cruiser (the tool that checks the floors, .dependency-cruiser.cjs) and drawn in
// Mermaid. `npm run generate:architecture` writes it; scripts/architecture/diagram.test.ts fails
// when it is stale.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import * as z from 'zod';

export const ARCHITECTURE_DOC = 'docs/architecture.md';
const START = '<!-- diagram:start (npm run generate:architecture) -->';
const END = '<!-- diagram:end -->';

/** A floor or a feature, as dependency-cruiser collapses a module's path into it. */
const COLLAPSE = '^src/(features/[^/]+|app|platform|ui|styles)';

/** What we read of dependency-cruiser's JSON: each collapsed module and what it imports. */
const cruiseSchema = z.object({
  modules: z.array(z.object({ source: z.string(), dependencies: z.array(z.object({ resolved: z.string() })) })),
});

/** The name a collapsed path is drawn by: a feature's folder name, or the floor's. */
const nameOf = (path: string): string | undefined => /^src\/(?:features\/)?([^/]+)$/.exec(path)?.[1];

/** Who imports whom, by feature and floor (test files left out: they are not the product). */
export async function importGraph(): Promise<Map<string, Set<string>>> {
  const { stdout } = await promisify(execFile)(
    'node_modules/.bin/depcruise',
    ['src', '--config', '.dependency-cruiser.cjs', '--include-only', '^src/', '--exclude', '\\.test\\.tsx?$'].concat([
      '--collapse',
      COLLAPSE,
      '--output-type',
      'json',
    ]),
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const graph = new Map<string, Set<string>>();
  for (const module of cruiseSchema.parse(JSON.parse(stdout)).modules) {
    const from = nameOf(module.source);
    if (!from) continue;
    const to = graph.get(from) ?? new Set<string>();
    graph.set(from, to);
    for (const { resolved } of module.dependencies) {
      const name = nameOf(resolved);
      if (name && name !== from) to.add(name);
    }
  }
  return graph;
}

/** The ground floor: every feature may stand on it, so its arrows are not drawn one by one. */
const GROUND = ['platform', 'ui', 'styles'];

/**
 * The arrows worth drawing: those between features and from the root, without one that a longer
 * path already implies (a transitive reduction; the graph has no cycle, check:deps sees to that).
 */
export function drawnArrows(graph: Map<string, Set<string>>): [string, string][] {
  const edges = (name: string) => [...(graph.get(name) ?? [])].filter((to) => !GROUND.includes(to));
  const reaches = new Map<string, Set<string>>();
  const reach = (name: string, seen: Set<string> = new Set()): Set<string> => {
    const known = reaches.get(name);
    if (known) return known;
    if (seen.has(name)) throw new Error(`the features import each other around ${name}: run npm run check:deps`);
    seen.add(name);
    const all = new Set<string>();
    for (const to of edges(name)) {
      all.add(to);
      for (const further of reach(to, seen)) all.add(further);
    }
    reaches.set(name, all);
    return all;
  };
  const arrows: [string, string][] = [];
  const drawn = [...graph.keys()].filter((name) => !GROUND.includes(name)).sort();
  for (const from of drawn) reach(from);
  for (const from of drawn) {
    const direct = edges(from);
    for (const to of direct.sort()) {
      const implied = direct.some((other) => other !== to && reach(other).has(to));
      if (!implied) arrows.push([from, to]);
    }
  }
  return arrows;
}

/** The Mermaid block: the root at the top, the features under it, the ground floor beneath. */
export function mermaid(graph: Map<string, Set<string>>): string {
  const id = (name: string) => name.replace(/-/g, '_');
  const features = [...graph.keys()].filter((name) => !GROUND.includes(name) && name !== 'app').sort();
  const lines = [
    '```mermaid',
    'flowchart TB',
    '  app["src/app: the composition root"]',
    '  subgraph features["src/features"]',
    ...features.map((name) => `    ${id(name)}["${name}"]`),
    '  end',
    `  ground["src/platform, src/ui, src/styles: the ground floor, which every feature may import"]`,
    ...drawnArrows(graph).map(([from, to]) => `  ${id(from)} --> ${id(to)}`),
    '  features --> ground',
    '```',
  ];
  return lines.join('\n');
}

/** docs/architecture.md with the diagram between its markers replaced by `diagram`. */
export async function documentWith(diagram: string): Promise<string> {
  const text = await readFile(ARCHITECTURE_DOC, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${ARCHITECTURE_DOC} has no ${START} … ${END} markers`);
  return `${text.slice(0, start + START.length)}\n\n${diagram}\n\n${text.slice(end)}`;
}
