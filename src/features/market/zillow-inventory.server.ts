/**
 * Zillow's for-sale inventory file (`…invt_fs…month.csv`, the same layout as the ZHVI City file:
 * RegionID … CountyName, then one column per month) into `town_market_data.for_sale_inventory`:
 * the latest month's count for each of our towns the file covers.
 *
 * Zillow Research publishes this series at Metro and national level; only a City-level file (with
 * State and CountyName columns) can cover a town. A Metro-level file is refused with a message that
 * says so, rather than silently matching nothing. Towns the file does not cover keep what they had
 * (empty until a file covers them), and the page says the figure is unavailable.
 */
import type { Db } from '../../platform/db.ts';
import type { Town } from '../towns/public/town-data.ts';
import type { CsvReaderOptions } from './csv.ts';
import { importReport, scanZillowCsv, type ZillowImportReport } from './zillow-scan.server.ts';

export interface InventoryImportOptions extends CsvReaderOptions {
  towns?: readonly Town[];
  /** Stored as last_updated of the towns whose inventory changed (default: now). */
  now?: Date;
  originLabel?: string;
}

/**
 * Imports the for-sale inventory file from `source`. Like importZhvi: streamed, nothing written
 * until the source is read to its end, then one transaction; the ZHVI fields are left alone.
 */
export async function importZillowInventory(
  db: Db,
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: InventoryImportOptions = {},
): Promise<ZillowImportReport> {
  const origin = options.originLabel ?? 'Zillow for-sale inventory file';
  const scan = await scanZillowCsv(source, { ...options, originLabel: origin, pointsKept: 1 });
  const rows = [...scan.matches.values()]
    .flatMap((series) => {
      const latest = series.points.at(-1);
      return latest ? [{ town_slug: series.town.slug, for_sale_inventory: Math.round(latest.value) }] : [];
    })
    .sort((a, b) => (a.town_slug < b.town_slug ? -1 : 1));
  const now = options.now ?? new Date();
  const updated =
    rows.length === 0
      ? []
      : // One statement: atomic on its own.
        (
          await db.query<{ town_slug: string }>(
            `INSERT INTO town_market_data AS m (town_slug, for_sale_inventory, last_updated)
               SELECT town_slug, for_sale_inventory, $2::timestamptz
                 FROM jsonb_to_recordset($1::jsonb) AS t(town_slug text, for_sale_inventory integer)
               ON CONFLICT (town_slug) DO UPDATE SET
                 for_sale_inventory = EXCLUDED.for_sale_inventory,
                 last_updated = EXCLUDED.last_updated
               WHERE m.for_sale_inventory IS DISTINCT FROM EXCLUDED.for_sale_inventory
               RETURNING town_slug`,
            [JSON.stringify(rows), now.toISOString()],
          )
        ).map((row) => row.town_slug);
  return importReport(origin, scan, updated);
}
