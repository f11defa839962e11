// npm run generate:api-routes: writes src/app/api-routes.generated.ts, the paths each route group
// registers (scripts/api-routes/table.ts). Run it after adding, moving or removing a route.
import { writeFile } from 'node:fs/promises';
import { currentRouteTable, GENERATED_FILE, renderRouteTable } from './api-routes/table.ts';

const table = await currentRouteTable();
await writeFile(GENERATED_FILE, await renderRouteTable(table));
console.log(`${GENERATED_FILE}: ${table.length} paths in ${new Set(table.map((row) => row.group)).size} groups`);
