/**
 * The embedded database (PGlite: PostgreSQL in WebAssembly, 17 MB) of local runs, tests and the
 * build without DATABASE_URL. The package is imported when a database is opened here, not when a
 * module loads: code that runs on Neon (every deployed function) never loads it, and netlify.toml
 * keeps its files out of the functions' zips (decision 0026). A static import would not do, even
 * from a module imported lazily: Netlify's bundler (esbuild) hoists a package's static import to
 * the top of the function's bundle.
 */
import { mkdirSync } from 'node:fs';
import { toNumber, type Db } from './db.ts';

export async function openPglite(dataDir: string | undefined): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const [{ PGlite, types: pgliteTypes }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]).catch((error: unknown) => {
    throw isMissingPackage(error)
      ? new Error('The embedded database (PGlite) is not deployed with the functions: set DATABASE_URL', {
          cause: error,
        })
      : error;
  });
  const pg = await PGlite.create(dataDir ?? 'memory://', {
    // The leads search's trigram index (migration 0011); a PostgreSQL server ships it as contrib.
    extensions: { pg_trgm },
    parsers: { [pgliteTypes.INT8]: toNumber, [pgliteTypes.NUMERIC]: toNumber },
  });
  let roundTrips = 0;
  const query = async <Row>(text: string, params?: readonly unknown[]): Promise<Row[]> => {
    roundTrips += 1;
    const result = await pg.query<Row>(text, params ? [...params] : undefined);
    return result.rows;
  };
  return {
    kind: 'pglite',
    get roundTrips() {
      return roundTrips;
    },
    query,
    async exec(script) {
      roundTrips += 1;
      await pg.exec(script);
    },
    async transaction(work) {
      // PGlite runs one statement at a time in-process; BEGIN/COMMIT each count as a round trip
      // to keep the figures comparable with a networked server.
      roundTrips += 2;
      return pg.transaction((tx) =>
        work({
          async query<Row>(text: string, params?: readonly unknown[]) {
            roundTrips += 1;
            return (await tx.query<Row>(text, params ? [...params] : undefined)).rows;
          },
          async exec(script) {
            roundTrips += 1;
            await tx.exec(script);
          },
        }),
      );
    },
    close: () => pg.close(),
  };
}

const isMissingPackage = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND';
