-- The dashboard's figures without counting every row on every view (issue 9's budget: p99 < 50 ms at
-- 50 connections for an agent with 10,000 leads).

-- Leads and estimates per agent and New York day, kept by statement-level triggers: the overview's
-- totals, this month and the 12 weeks, and the leads list's total, sum a few hundred rows at most.
-- A day has up to four rows (shards): each database connection adds to its own (its backend pid
-- modulo 4), so concurrent estimate inserts for one agent (batched, several in flight under load)
-- do not queue on one row's lock through each other's commits. Readers sum the shards.
CREATE TABLE agent_daily_counts (
  agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  day date NOT NULL,
  shard smallint NOT NULL DEFAULT 0,
  leads integer NOT NULL DEFAULT 0,
  estimates integer NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, day, shard)
);

INSERT INTO agent_daily_counts (agent_id, day, leads, estimates)
SELECT agent_id, day, sum(leads), sum(estimates)
  FROM (SELECT agent_id, (created_at AT TIME ZONE 'America/New_York')::date AS day, 1 AS leads, 0 AS estimates
          FROM leads
        UNION ALL
        SELECT agent_id, (created_at AT TIME ZONE 'America/New_York')::date, 0, 1 FROM estimates) AS made
 GROUP BY agent_id, day;

-- One function for both tables and both directions: TG_TABLE_NAME says which column, TG_OP the sign.
CREATE FUNCTION count_dashboard_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO agent_daily_counts AS c (agent_id, day, shard, leads, estimates)
    SELECT agent_id, (created_at AT TIME ZONE 'America/New_York')::date, pg_backend_pid() % 4,
           CASE WHEN TG_TABLE_NAME = 'leads' THEN count(*) ELSE 0 END,
           CASE WHEN TG_TABLE_NAME = 'estimates' THEN count(*) ELSE 0 END
      FROM changed_rows
     GROUP BY 1, 2
     -- The same order in every statement: concurrent writers lock the rows in one order.
     ORDER BY 1, 2
    ON CONFLICT (agent_id, day, shard) DO UPDATE
       SET leads = c.leads + EXCLUDED.leads, estimates = c.estimates + EXCLUDED.estimates;
  ELSE
    -- Taken off the connection's own shard (a day's sum over its shards stays right; a shard may go
    -- below zero, which the sums absorb).
    INSERT INTO agent_daily_counts AS c (agent_id, day, shard, leads, estimates)
    SELECT agent_id, day, pg_backend_pid() % 4,
           CASE WHEN TG_TABLE_NAME = 'leads' THEN -n ELSE 0 END,
           CASE WHEN TG_TABLE_NAME = 'estimates' THEN -n ELSE 0 END
      FROM (SELECT agent_id, (created_at AT TIME ZONE 'America/New_York')::date AS day, count(*) AS n
              FROM changed_rows GROUP BY 1, 2 ORDER BY 1, 2) AS gone
     -- Not for an agent being deleted (their leads and counts go with them).
     WHERE EXISTS (SELECT 1 FROM agents a WHERE a.id = gone.agent_id)
    ON CONFLICT (agent_id, day, shard) DO UPDATE
       SET leads = c.leads + EXCLUDED.leads, estimates = c.estimates + EXCLUDED.estimates;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_counted_in AFTER INSERT ON leads
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION count_dashboard_rows();
CREATE TRIGGER leads_counted_out AFTER DELETE ON leads
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION count_dashboard_rows();
CREATE TRIGGER estimates_counted_in AFTER INSERT ON estimates
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION count_dashboard_rows();
CREATE TRIGGER estimates_counted_out AFTER DELETE ON estimates
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION count_dashboard_rows();

-- Searching leads by name, e-mail or phone digits: one lower-cased text per lead with a trigram
-- index, so a search among 10,000 leads reads the few that match instead of every one.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX leads_search_trgm_idx ON leads USING gin (
  (lower(first_name || ' ' || last_name || ' ' || email || ' ' || regexp_replace(coalesce(phone, ''), '\D', '', 'g')))
  gin_trgm_ops
);
