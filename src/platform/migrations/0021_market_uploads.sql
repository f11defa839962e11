-- Market-data files uploaded on /admin/data arrive in chunks, each request well under Netlify's
-- 6 MB body limit (decision 0028): the chunks of one upload are staged here until the admin's
-- "complete" queues its import, which the background function reads chunk by chunk. An upload is
-- deleted once its import has run; one left unfinished is deleted a day after it began.

CREATE TABLE market_uploads (
  -- Chosen by the browser (a random UUID), so each chunk can say which upload it belongs to.
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('zhvi', 'sold')),
  -- The name of the file the admin picked, shown as the run's origin.
  name text NOT NULL,
  -- The size of the file the admin picked: the staged chunks (a ZHVI file's New York rows, or a
  -- RESO file whole) never add up to more.
  file_bytes bigint NOT NULL CHECK (file_bytes > 0),
  admin_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX market_uploads_created_idx ON market_uploads (created_at);

CREATE TABLE market_upload_chunks (
  upload_id uuid NOT NULL REFERENCES market_uploads (id) ON DELETE CASCADE,
  chunk_index integer NOT NULL CHECK (chunk_index >= 0),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (upload_id, chunk_index)
);

-- A run is 'queued' from the request that asked for it until the background function takes it.
ALTER TABLE data_runs DROP CONSTRAINT data_runs_status_check;
ALTER TABLE data_runs ADD CONSTRAINT data_runs_status_check
  CHECK (status IN ('queued', 'running', 'succeeded', 'failed'));
-- The staged upload a queued run imports; null for a run of the configured feeds.
ALTER TABLE data_runs ADD COLUMN upload_id uuid REFERENCES market_uploads (id) ON DELETE SET NULL;
CREATE INDEX data_runs_queued_idx ON data_runs (id) WHERE status = 'queued';
