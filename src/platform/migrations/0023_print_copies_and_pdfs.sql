-- Finding 4 of the security audit of 2026-11-26 (docs/decisions/0036-image-and-pdf-workers.md).
-- The print copy of an agent's photo or logo (a few hundred pixels, made at upload in the image
-- worker), keyed by the stored image it was made from: the PDF embeds it, never the 1200 px original.
CREATE TABLE image_print_copies (
  hash text PRIMARY KEY REFERENCES images (hash) ON DELETE CASCADE,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Each estimate's PDF, made once and then served from here while `version` (a hash of everything
-- printed: the estimate, the agent's card and print copies, the disclaimer, the link) still matches.
CREATE TABLE estimate_pdfs (
  estimate_uuid uuid PRIMARY KEY REFERENCES estimates (uuid) ON DELETE CASCADE,
  version text NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
