-- Market data imported from the shipped sample files (data/sample/, local demo data only) is
-- marked, so the town pages can say it is not real; a real import of a town clears the mark.
ALTER TABLE town_market_data ADD COLUMN sample boolean NOT NULL DEFAULT false;
ALTER TABLE town_sold_homes ADD COLUMN sample boolean NOT NULL DEFAULT false;
