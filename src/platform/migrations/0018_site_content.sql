-- The marketing content the public pages show (src/features/content/site-content-schema.ts has its
-- shape and limits): the claims with optional source lines, the track record, the testimonial, the
-- footer disclaimer and the two counties' figures. One row, edited whole by the admin
-- (PUT /api/admin/site-content) and read by the build. The values below are the site's defaults,
-- the product specification's wording; nothing else holds them.

CREATE TABLE site_content (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- [{ figure, label, detail, source }], 1 to 6; an empty detail or source is not shown.
  claims jsonb NOT NULL,
  -- [{ figure, label }], 1 to 6.
  track_record jsonb NOT NULL,
  testimonial_quote text NOT NULL,
  testimonial_author text NOT NULL,
  disclaimer text NOT NULL,
  -- { nassau: [{ label, value }], suffolk: [{ label, value }] }, 1 to 6 each.
  county_stats jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO site_content (id, claims, track_record, testimonial_quote, testimonial_author, disclaimer, county_stats)
VALUES (
  1,
  '[
    {"figure": "~2%", "label": "higher sale price", "detail": "About $7K more on a typical Long Island sale", "source": ""},
    {"figure": "75%", "label": "more engagement", "detail": "Buyers spend more time with showcase listings", "source": ""},
    {"figure": "15%", "label": "more profile views", "detail": "Listings get seen by more serious buyers", "source": ""},
    {"figure": "<10%", "label": "of listings", "detail": "Fewer than 1 in 10 listings in a market get showcase treatment", "source": ""}
  ]',
  '[
    {"figure": "1,381+", "label": "homes sold"},
    {"figure": "350", "label": "sold in the last 12 months"},
    {"figure": "$80K–$4.7M", "label": "price range"},
    {"figure": "5.0", "label": "rating from 47 reviews"}
  ]',
  'We knew what we would walk away with before we even listed. The showcase brought more buyers through than we expected, and we closed above asking.',
  'A Long Island seller',
  'Marketing performance data analysed April 2025. Individual results vary. Estimates are for information only and are not a guarantee of sale price or proceeds.',
  '{
    "nassau": [
      {"label": "Population", "value": "1.4M"},
      {"label": "Median Home Value", "value": "$650K"},
      {"label": "Market Activity", "value": "Active"},
      {"label": "School Districts", "value": "56"}
    ],
    "suffolk": [
      {"label": "Population", "value": "1.5M"},
      {"label": "Median Home Value", "value": "$550K"},
      {"label": "Market Activity", "value": "Diverse"},
      {"label": "School Districts", "value": "70+"}
    ]
  }'
);

-- The pre-rendered pages show this content: a write makes them out of date (see 0015).
CREATE TRIGGER site_content_changed AFTER INSERT OR UPDATE OR DELETE ON site_content
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed();
