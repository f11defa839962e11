-- When each agent last signed in (issue 23, newcomer audit minor 25): the admin's agents table shows
-- it, so an admin can tell an agent who never used their account from one who stopped. Written by
-- the login's one write after a matching password (which also carries a password-hash upgrade).
ALTER TABLE agents ADD COLUMN last_sign_in_at timestamptz;
