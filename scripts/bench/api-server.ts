// Child process of bench-api: the API alone on DATABASE_URL, printing its URL when listening.
import { createApi } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';
import { listen } from '../../src/server/local-server.ts';

const db = await openDatabase(parseEnv());
const { url } = await listen(createApi({ db }), 0);
console.log(`LISTENING ${url}`);
