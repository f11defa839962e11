import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { currentRouteTable, GENERATED_FILE, renderRouteTable } from '../../scripts/api-routes/table.ts';
import { API_GROUPS, GROUP_NAMES } from './api-groups.server.ts';
import { API_ROUTES } from './api-routes.generated.ts';

describe('the generated route table', () => {
  it('is what the route groups register now (else: npm run generate:api-routes)', async () => {
    const table = await currentRouteTable();
    expect(await readFile(GENERATED_FILE, 'utf8')).toBe(await renderRouteTable(table));
    expect(API_ROUTES).toEqual(table);
  });

  it('names every group, in the order the groups are declared', () => {
    expect(GROUP_NAMES).toEqual(Object.keys(API_GROUPS));
    const used = new Set(API_ROUTES.map(({ group }) => group));
    expect(GROUP_NAMES.filter((group) => !used.has(group))).toEqual([]);
  });
});
