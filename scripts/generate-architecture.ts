// npm run generate:architecture: redraws the diagram in docs/architecture.md from the code
// (scripts/architecture/diagram.ts). Run it after a feature starts or stops importing another.
import { writeFile } from 'node:fs/promises';
import { ARCHITECTURE_DOC, documentWith, drawnArrows, importGraph, mermaid } from './architecture/diagram.ts';

const graph = await importGraph();
await writeFile(ARCHITECTURE_DOC, await documentWith(mermaid(graph)));
console.log(`${ARCHITECTURE_DOC}: ${graph.size} features and floors, ${drawnArrows(graph).length} arrows drawn`);
