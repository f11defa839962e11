-- What the pre-rendered pages show lives in these tables; any write to them means the static
-- site is out of date until the next build. A statement-level trigger records the time of the
-- change, so no write path can forget to (the admin screens, the data refresh, a hand-run SQL fix).
-- The rebuild (local or through BUILD_HOOK_URL) compares it with the data time of the build.
-- The trigger is per row, not per statement: a refused save (an upsert an agent's session turned
-- into no row) writes nothing and must not ask for a rebuild. Within one transaction now() is
-- constant, so a refresh writing thousands of rows updates the marker once; the rest match nothing.

CREATE TABLE site_changes (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- The last write to anything a pre-rendered page shows.
  changed_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO site_changes (id) VALUES (1);

CREATE FUNCTION mark_site_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE site_changes SET changed_at = now() WHERE id = 1 AND changed_at < now();
  RETURN NULL;
END;
$$;

CREATE TRIGGER site_settings_changed AFTER INSERT OR UPDATE OR DELETE ON site_settings
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed();
CREATE TRIGGER seo_settings_changed AFTER INSERT OR UPDATE OR DELETE ON seo_settings
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed();
CREATE TRIGGER towns_changed AFTER INSERT OR UPDATE OR DELETE ON towns
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed();
CREATE TRIGGER town_market_data_changed AFTER INSERT OR UPDATE OR DELETE ON town_market_data
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed();
CREATE TRIGGER town_sold_homes_changed AFTER INSERT OR UPDATE OR DELETE ON town_sold_homes
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed();
