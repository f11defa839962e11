-- Issue 25, the seller-updates screens (/dashboard/updates, the admin's card, /dashboard/leads).

-- site_settings' trigger (migration 0015) marks the static site out of date on any write to the row;
-- the seller-updates switch and sending window (migration 0030) are on no page, so saving them must
-- not ask for a rebuild. Any other change to the row still does.
CREATE FUNCTION mark_site_changed_unless_seller_updates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND (to_jsonb(NEW) - ARRAY['seller_updates_enabled', 'seller_updates_window_start', 'seller_updates_window_end', 'updated_at'])
       = (to_jsonb(OLD) - ARRAY['seller_updates_enabled', 'seller_updates_window_start', 'seller_updates_window_end', 'updated_at']) THEN
    RETURN NULL;
  END IF;
  UPDATE site_changes SET changed_at = now() WHERE id = 1 AND changed_at < now();
  RETURN NULL;
END;
$$;

DROP TRIGGER site_settings_changed ON site_settings;
CREATE TRIGGER site_settings_changed AFTER INSERT OR UPDATE OR DELETE ON site_settings
  FOR EACH ROW EXECUTE FUNCTION mark_site_changed_unless_seller_updates();

-- The admin's volumes by month (GET /api/admin/digests): the updates' failed e-mails and the
-- subscriptions ended, each a range by month instead of a scan of every delivery or subscription.
CREATE INDEX email_deliveries_failed_kind_idx ON email_deliveries (kind, created_at) WHERE status = 'failed';
CREATE INDEX seller_updates_ended_idx ON seller_updates (ended_at) WHERE state = 'unsubscribed';
