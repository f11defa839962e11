-- Issue 25, the seller-updates run's due read (decision 0056): a batch is the next `limit` due
-- subscriptions after a cursor, ordered by (next_due_at, id). With the index on those two columns the
-- keyset (next_due_at, id) > (cursor) is the index's own condition and the rows come out in order:
-- each batch reads its own rows and no more, however many are due. The index on next_due_at alone
-- (migration 0030) answered the same question less well, so it goes.
CREATE INDEX seller_updates_due_id_idx ON seller_updates (next_due_at, id) WHERE state = 'subscribed';
DROP INDEX seller_updates_due_idx;
