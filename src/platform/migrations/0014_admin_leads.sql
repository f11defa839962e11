-- The admin's list of every agent's leads (GET /api/admin/leads) pages newest first with id as the
-- tie-breaker, and its CSV export reads the same order by keyset: this index serves both without
-- sorting 100,000 leads. A source filter pages by the second, which keeps the same order.
CREATE INDEX leads_created_id_idx ON leads (created_at DESC, id DESC);
CREATE INDEX leads_source_created_id_idx ON leads (source, created_at DESC, id DESC);
