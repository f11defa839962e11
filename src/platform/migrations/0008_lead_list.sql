-- The agent's leads list (GET /api/leads) pages newest first with id as the tie-breaker, and the
-- CSV export reads the same order: one index serves both, and the count, for an agent with
-- thousands of leads. It covers what leads_agent_created_idx did, so that one goes.
CREATE INDEX leads_agent_created_id_idx ON leads (agent_id, created_at DESC, id DESC);
DROP INDEX IF EXISTS leads_agent_created_idx;
