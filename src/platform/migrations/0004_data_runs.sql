-- The market-data pipeline: a record of every run (for the admin screens) and the incremental
-- position of each feed.

CREATE TABLE data_runs (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- 'zhvi' (Zillow Home Value Index), 'inventory' (Zillow for-sale inventory), 'sold' (RESO Web API)
  source text NOT NULL CHECK (source IN ('zhvi', 'inventory', 'sold')),
  -- Where the data came from: a URL or a file path.
  origin text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  rows_read integer NOT NULL DEFAULT 0,
  rows_skipped integer NOT NULL DEFAULT 0,
  towns_updated integer NOT NULL DEFAULT 0,
  -- Did the run change any stored data (so the site needs a rebuild)?
  changed boolean NOT NULL DEFAULT false,
  error text
);
CREATE INDEX data_runs_source_started_idx ON data_runs (source, started_at DESC);

-- The RESO feed's incremental position: the newest ModificationTimestamp already stored.
CREATE TABLE data_sync_state (
  source text PRIMARY KEY,
  last_modification_timestamp timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
