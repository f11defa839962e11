-- Addresses that used an unsubscribe link (the page or a mail client's one-click button). Lead
-- notices and any other e-mail nobody asked for just now are not sent to them; e-mail the person
-- asks for (an estimate, a verification or password-reset link) still is.

CREATE TABLE email_suppressions (
  -- Lower-cased, as the unsubscribe token carries it.
  email text PRIMARY KEY CHECK (email = lower(email)),
  -- 'page' (/unsubscribe) or 'one_click' (RFC 8058 List-Unsubscribe-Post from a mail client).
  method text NOT NULL CHECK (method IN ('page', 'one_click')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- 'suppressed': claimed for delivery but never handed to a provider, because the address unsubscribed.
ALTER TABLE email_deliveries DROP CONSTRAINT email_deliveries_status_check;
ALTER TABLE email_deliveries
  ADD CONSTRAINT email_deliveries_status_check CHECK (status IN ('queued', 'sent', 'failed', 'suppressed'));
