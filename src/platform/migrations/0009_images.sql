-- Uploaded images (profile photos, logos; later OG and showcase images), after sharp decoded and
-- re-encoded them: content-addressed by the SHA-256 of the stored bytes, so a URL never changes
-- meaning and can be cached for a year (docs/decisions/0013-images-in-postgres.md). Agents point at
-- them by URL (agents.profile_photo, agents.logo: /api/images/{hash}.{ext}).

CREATE TABLE images (
  hash text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  bytes bytea NOT NULL,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
