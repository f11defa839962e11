import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, documentWith, drawnArrows, importGraph, mermaid } from './diagram.ts';

const graphOf = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));

describe('the architecture diagram', () => {
  it('in docs/architecture.md is the code’s as it is now (else: npm run generate:architecture)', async () => {
    const graph = await importGraph();
    // The floors and some features the code is known to have: the graph was read, not empty.
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['app', 'platform', 'ui', 'leads', 'net-sheet']));
    expect(graph.get('leads')).toContain('crm');
    expect(await readFile(ARCHITECTURE_DOC, 'utf8')).toBe(await documentWith(mermaid(graph)));
  }, 60_000);

  it('leaves out an arrow a longer path implies, and the ground floor’s arrows', () => {
    const graph = graphOf({ a: ['b', 'c', 'platform'], b: ['c', 'ui'], c: ['platform'], platform: [], ui: [] });
    expect(drawnArrows(graph)).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
  });

  it('refuses to draw features that import each other', () => {
    expect(() => drawnArrows(graphOf({ a: ['b'], b: ['a'] }))).toThrow(/import each other/);
  });
});
