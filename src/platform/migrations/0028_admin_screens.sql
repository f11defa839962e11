-- Two changes of the admin's screens (issue 23, newcomer audit minors 25 and 34).

-- When each agent last signed in (issue 23, newcomer audit minor 25): the admin's agents table shows
-- it, so an admin can tell an agent who never used their account from one who stopped. Written by
-- the login's one write after a matching password (which also carries a password-hash upgrade).
ALTER TABLE agents ADD COLUMN last_sign_in_at timestamptz;

-- The shipped claims (migration 0018) state figures with no source line (newcomer audit minor 34).
-- While they are still the shipped ones, untouched by an admin, each says where it comes from: the
-- product's sample content, not this site's own sales. An admin's own claims are left as they are.
UPDATE site_content
   SET claims = (
         SELECT jsonb_agg(claim || '{"source": "Source: sample marketing data (April 2025) shipped with this site, not its own sales"}'
                          ORDER BY position)
           FROM jsonb_array_elements(claims) WITH ORDINALITY AS item(claim, position)
       ),
       updated_at = now()
 WHERE claims = '[
    {"figure": "~2%", "label": "higher sale price", "detail": "About $7K more on a typical Long Island sale", "source": ""},
    {"figure": "75%", "label": "more engagement", "detail": "Buyers spend more time with showcase listings", "source": ""},
    {"figure": "15%", "label": "more profile views", "detail": "Listings get seen by more serious buyers", "source": ""},
    {"figure": "<10%", "label": "of listings", "detail": "Fewer than 1 in 10 listings in a market get showcase treatment", "source": ""}
  ]'::jsonb;
