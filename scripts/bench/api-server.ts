// Child process of bench-api and bench-load: the API alone on DATABASE_URL, printing its URL when listening and
// answering its parent's "round-trips" message with the database round trips made so far.
import { createApi } from '../../src/server/app.ts';
import { appDepsFrom } from '../../src/server/compose.ts';
import { openDatabase } from '../../src/server/database.ts';
import { parseEnv } from '../../src/server/env.ts';
import { listen } from '../../src/server/local-server.ts';

const env = parseEnv();
const db = await openDatabase(env);
const { url } = await listen(createApi(appDepsFrom(env, db)), 0);
process.on('message', (message) => {
  if (message === 'round-trips') process.send?.({ roundTrips: db.roundTrips });
});
console.log(`LISTENING ${url}`);
