-- AI reservations and charges commit without waiting for the WAL flush. Every AI action of a workspace reserves
-- under a lock on the workspace's row, held until commit: waiting for the disk there put each caller behind the
-- previous one's flush (14 ms per reservation with 20 callers), and the charge's flush sat in every answer's path.
-- What a PostgreSQL crash can cost is bounded by the WAL writer's delay (at most 3 x wal_writer_delay, 600 ms by
-- default): reservations and charges of those last moments are lost, so those calls go uncharged. Nothing is ever
-- charged twice, and credits never go below zero.
CREATE OR REPLACE FUNCTION ai_reserve(p_workspace uuid, p_action text, p_cost int, p_max_in_flight int, p_ttl_ms int,
  OUT outcome text, OUT request_id uuid, OUT remaining int)
LANGUAGE plpgsql AS $$
DECLARE
  v_period timestamptz := date_trunc('month', now(), 'UTC');
  v_in_flight int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT CASE WHEN w.ai_credits_period IS DISTINCT FROM v_period THEN w.ai_credits_monthly ELSE w.ai_credits_remaining END
    INTO remaining FROM workspace w WHERE w.id = p_workspace FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'limit';
    remaining := 0;
    RETURN;
  END IF;
  WITH lapsed AS (
    DELETE FROM ai_request r WHERE r.workspace_id = p_workspace AND r.status = 'reserved' AND r.expires_at <= now()
    RETURNING r.cost, r.period)
  SELECT remaining + coalesce(sum(l.cost) FILTER (WHERE l.period = v_period), 0) INTO remaining FROM lapsed l;
  SELECT count(*) INTO v_in_flight FROM ai_request r WHERE r.workspace_id = p_workspace AND r.status = 'reserved';
  IF v_in_flight >= p_max_in_flight THEN
    outcome := 'busy';
  ELSIF remaining < p_cost THEN
    outcome := 'limit';
  ELSE
    outcome := 'reserved';
    INSERT INTO ai_request (id, workspace_id, action, cost, period, status, expires_at)
      VALUES (gen_random_uuid(), p_workspace, p_action, p_cost, v_period, 'reserved', now() + p_ttl_ms * interval '1 millisecond')
      RETURNING id INTO request_id;
    remaining := remaining - p_cost;
  END IF;
  UPDATE workspace SET ai_credits_remaining = remaining, ai_credits_period = v_period WHERE id = p_workspace;
END;
$$;

-- ai_settle only charges now, in one statement: it no longer marks the month's low-credit alert as sent. It says
-- whether the alert is due; the caller then marks it and records the event together (src/ai/credits.ts), so the
-- charge needs no transaction of its own and a crash between the two only means the next charge sends the alert.
DROP FUNCTION ai_settle(uuid);
CREATE FUNCTION ai_settle(p_request uuid, OUT settled boolean, OUT low_alert boolean, OUT remaining int, OUT monthly int,
  OUT workspace uuid, OUT credit_period timestamptz)
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE ai_request r SET status = 'settled', settled_at = now() WHERE r.id = p_request AND r.status = 'reserved'
    RETURNING r.workspace_id, r.period INTO workspace, credit_period;
  settled := FOUND;
  low_alert := false;
  IF NOT settled THEN
    RETURN;
  END IF;
  SELECT w.ai_credits_remaining, w.ai_credits_monthly,
         w.ai_credits_period = credit_period AND w.ai_credits_remaining * 10 < w.ai_credits_monthly
           AND w.ai_credits_low_period IS DISTINCT FROM credit_period
    INTO remaining, monthly, low_alert FROM workspace w WHERE w.id = workspace;
END;
$$;
