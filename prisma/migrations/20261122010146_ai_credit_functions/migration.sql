-- AI credits and the in-flight cap, one statement per step so that every server process agrees (see src/ai/credits.ts).
-- Credits count per calendar month (UTC): the first reservation of a month starts again from ai_credits_monthly.

-- Takes p_cost credits and one in-flight place for an AI action of the workspace, or says why not: 'busy' when
-- p_max_in_flight actions are already under way, 'limit' when fewer than p_cost credits are left. Reservations of
-- a process that died (past expires_at) are dropped first and their credits given back.
CREATE FUNCTION ai_reserve(p_workspace uuid, p_action text, p_cost int, p_max_in_flight int, p_ttl_ms int,
  OUT outcome text, OUT request_id uuid, OUT remaining int)
LANGUAGE plpgsql AS $$
DECLARE
  v_period timestamptz := date_trunc('month', now(), 'UTC');
  v_in_flight int;
BEGIN
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

-- Charges a reservation for good (it stays as the ledger's row). low_alert is true exactly once per month: when
-- this charge is the first of the month to find fewer than 10 % of the month's credits left.
CREATE FUNCTION ai_settle(p_request uuid, OUT settled boolean, OUT low_alert boolean, OUT remaining int, OUT monthly int)
LANGUAGE plpgsql AS $$
DECLARE
  v_workspace uuid;
  v_period timestamptz;
BEGIN
  UPDATE ai_request SET status = 'settled', settled_at = now() WHERE id = p_request AND status = 'reserved'
    RETURNING workspace_id, period INTO v_workspace, v_period;
  settled := FOUND;
  low_alert := false;
  IF NOT settled THEN
    RETURN;
  END IF;
  SELECT w.ai_credits_remaining, w.ai_credits_monthly INTO remaining, monthly FROM workspace w WHERE w.id = v_workspace;
  UPDATE workspace w SET ai_credits_low_period = v_period
    WHERE w.id = v_workspace AND w.ai_credits_period = v_period AND w.ai_credits_remaining * 10 < w.ai_credits_monthly
      AND w.ai_credits_low_period IS DISTINCT FROM v_period;
  low_alert := FOUND;
END;
$$;

-- Gives a reservation's credits back (to the month they were taken from, if it is still the workspace's month)
-- and frees its in-flight place.
CREATE FUNCTION ai_release(p_request uuid) RETURNS void
LANGUAGE sql AS $$
  WITH released AS (DELETE FROM ai_request WHERE id = p_request AND status = 'reserved' RETURNING workspace_id, cost, period)
  UPDATE workspace w SET ai_credits_remaining = w.ai_credits_remaining + r.cost
  FROM released r WHERE w.id = r.workspace_id AND w.ai_credits_period = r.period;
$$;
