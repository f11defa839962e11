/**
 * The fake Follow Up Boss's collections: `GET /v1/events` and `GET /v1/people`, paged as FUB pages
 * them (`limit` 10 by default and at most 100, `offset` or `next`, under `_metadata`).
 */
import { eventSchema, sameText } from './events.ts';
import { json, type Answer, type FubPerson, type FubRecordedEvent } from './model.ts';

/** One page of `items` (newest first already) as FUB pages a collection. */
function page(collection: string, items: unknown[], path: string, query: URLSearchParams, origin: string): Answer {
  const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 10) || 10));
  const fromNext = Number(Buffer.from(query.get('next') ?? '', 'base64url').toString('utf8'));
  const offset = query.get('next') ? fromNext || 0 : Math.max(0, Number(query.get('offset') ?? 0) || 0);
  const more = offset + limit < items.length;
  const next = more ? Buffer.from(String(offset + limit), 'utf8').toString('base64url') : null;
  const nextQuery = new URLSearchParams(query);
  nextQuery.delete('offset');
  if (next) nextQuery.set('next', next);
  return json(200, {
    _metadata: {
      collection,
      offset,
      limit,
      total: items.length,
      next,
      nextLink: next ? `${origin}${path}?${nextQuery.toString()}` : null,
    },
    [collection]: items.slice(offset, offset + limit),
  });
}

/** `GET /v1/events?personId=&type=`: the account's accepted events, newest first. */
export function listEvents(
  events: readonly FubRecordedEvent[],
  key: string,
  query: URLSearchParams,
  origin: string,
): Answer {
  const personId = query.get('personId');
  const types = query.get('type')?.split(',');
  const own = events
    .filter((event) => event.apiKey === key && event.id !== null)
    .filter((event) => personId === null || String(event.personId) === personId)
    .filter((event) => !types || (event.type !== null && types.includes(event.type)))
    .map((event) => {
      const body = eventSchema.safeParse(event.body).data;
      return {
        id: event.id,
        created: event.receivedAt.toISOString(),
        updated: event.receivedAt.toISOString(),
        personId: event.personId,
        message: body?.message ?? null,
        description: body?.description ?? null,
        noteId: null,
        source: body?.source ?? null,
        type: event.type,
        property: body?.property ?? null,
      };
    })
    .reverse();
  return page('events', own, '/v1/events', query, origin);
}

/** `GET /v1/people?email=`: the account's people with that e-mail, newest first. */
export function searchPeople(people: readonly FubPerson[], query: URLSearchParams, origin: string): Answer {
  const email = query.get('email');
  const found = people
    .filter((person) => email === null || person.emails.some((known) => sameText(email, known.value)))
    .toReversed();
  return page('people', found, '/v1/people', query, origin);
}
