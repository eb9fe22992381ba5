-- Rate limit leases: a server process takes a share of a person's remaining requests for the current minute in
-- one call, and spends it without asking again. An eighth of what is left is leased at a time, so shares shrink
-- to single requests near the limit: the leases together never exceed the limit.
CREATE FUNCTION rate_limit_lease(p_subject text, p_limit int, OUT granted int, OUT used int, OUT window_ends_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  current_window timestamptz := date_trunc('minute', now());
  spent int;
BEGIN
  INSERT INTO rate_limit_window AS w (subject, window_start, count) VALUES (p_subject, current_window, 0)
  ON CONFLICT (subject) DO UPDATE
    SET count = CASE WHEN w.window_start = excluded.window_start THEN w.count ELSE 0 END,
        window_start = excluded.window_start
  RETURNING w.count INTO spent;
  granted := CASE WHEN spent >= p_limit THEN 0 ELSE greatest(1, ceil((p_limit - spent) / 8.0)::int) END;
  used := spent + granted;
  IF granted > 0 THEN
    UPDATE rate_limit_window SET count = used WHERE subject = p_subject;
  END IF;
  window_ends_at := current_window + interval '1 minute';
END;
$$;

-- Server processes cache who a key or session belongs to; any change to keys, sessions, memberships or plans
-- tells them to forget it.
CREATE FUNCTION notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_key_access_changed AFTER UPDATE OR DELETE ON api_key FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER session_access_changed AFTER UPDATE OR DELETE ON session FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER membership_access_changed AFTER UPDATE OR DELETE ON membership FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER workspace_access_changed AFTER UPDATE OR DELETE ON workspace FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
