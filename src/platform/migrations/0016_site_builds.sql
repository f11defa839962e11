-- Every rebuild of the static site: asked for by an admin ('button') or started by the scheduled
-- job once changes have settled ('auto'), through Netlify's build hook ('hook') or by the local
-- server that serves dist/ ('local'). data_at is the site_changes.changed_at the build includes:
-- the site needs a rebuild while site_changes.changed_at is newer than the last succeeded build's.

CREATE TABLE site_builds (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  trigger text NOT NULL CHECK (trigger IN ('button', 'auto')),
  -- The admin who pressed Rebuild now; null for an automatic build (or a deleted admin).
  requested_by integer REFERENCES agents (id) ON DELETE SET NULL,
  mode text NOT NULL CHECK (mode IN ('hook', 'local')),
  data_at timestamptz NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  error text
);
-- Never two builds at once, whichever process (or Netlify function instance) starts them: the
-- second insert of a running build fails, and that caller waits for the next chance instead.
CREATE UNIQUE INDEX site_builds_one_running ON site_builds ((true)) WHERE status = 'running';
CREATE INDEX site_builds_succeeded_idx ON site_builds (finished_at DESC) WHERE status = 'succeeded';
