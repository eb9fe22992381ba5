-- Back to one path for AI credits: every action reserves its cost and an in-flight place before the model is called
-- and settles (or releases) after it, each a durable commit. The per-process leases of credits and places
-- (20261126013343_ai_request_places, 20261126013344_ai_credit_leases) and the asynchronous commit of reservations
-- and charges (20261122043000_ai_credits_async_commit) are gone: a PostgreSQL crash can no longer lose a charge.
-- ai_reserve and ai_settle are defined here in full; the earlier migrations are left as they were applied.

-- A lease still held belongs to a process of the previous version, which can no longer renew it (ai_lease is
-- dropped below): its credits are given back now, to the month they were taken from if it is still the
-- workspace's. Charges it had not written yet are lost, so those calls go uncharged.
WITH leases AS (
  DELETE FROM ai_request r WHERE r.action = 'lease' AND r.status = 'reserved' RETURNING r.workspace_id, r.cost, r.period),
held AS (SELECT l.workspace_id, l.period, sum(l.cost)::int AS cost FROM leases l GROUP BY l.workspace_id, l.period)
UPDATE workspace w SET ai_credits_remaining = w.ai_credits_remaining + h.cost
FROM held h WHERE w.id = h.workspace_id AND w.ai_credits_period = h.period;

DROP FUNCTION ai_lease(uuid, uuid, text[], int[], int, int, int, int, int, int, int, int);

-- AlterTable
ALTER TABLE "ai_request" DROP COLUMN "places";

-- Takes p_cost credits and one in-flight place for an AI action of the workspace, or says why not: 'busy' when
-- p_max_in_flight actions are already under way, 'limit' when fewer than p_cost credits are left. Reservations of
-- a process that died (past expires_at) are dropped first and their credits given back. Credits count per calendar
-- month (UTC): the first reservation of a month starts again from ai_credits_monthly.
CREATE OR REPLACE FUNCTION ai_reserve(p_workspace uuid, p_action text, p_cost int, p_max_in_flight int, p_ttl_ms int,
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

-- ai_reserve no longer uses them.
DROP FUNCTION ai_lapse(uuid, uuid, timestamptz);
DROP FUNCTION ai_places_held(uuid, uuid);

-- Charges a reservation for good (it stays as the ledger's row). low_alert: the month's low-credit alert is due
-- (fewer than 10 % of the month's credits left, not yet sent); the caller marks it as sent and records the event
-- together (src/ai/credits.ts).
CREATE OR REPLACE FUNCTION ai_settle(p_request uuid, OUT settled boolean, OUT low_alert boolean, OUT remaining int, OUT monthly int,
  OUT workspace uuid, OUT credit_period timestamptz)
LANGUAGE plpgsql AS $$
BEGIN
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
