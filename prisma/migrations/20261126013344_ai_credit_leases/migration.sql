-- A server process serving a workspace many AI calls a second leases credits and in-flight places for about a
-- second of them (src/ai/leases.ts) instead of reserving and settling each call: one row of ai_request per process
-- and workspace (action 'lease', status 'reserved') holds `cost` credits and `places` places, so the in-flight cap
-- counts places, not rows.

-- The workspace's reservations and leases past their expiry (their process died) are deleted, p_keep's aside:
-- answers the credits they held from month p_period, given back.
CREATE FUNCTION ai_lapse(p_workspace uuid, p_keep uuid, p_period timestamptz) RETURNS int
LANGUAGE sql AS $$
  WITH lapsed AS (
    DELETE FROM ai_request r
    WHERE r.workspace_id = p_workspace AND r.status = 'reserved' AND r.expires_at <= now() AND r.id IS DISTINCT FROM p_keep
    RETURNING r.cost, r.period)
  SELECT coalesce(sum(l.cost) FILTER (WHERE l.period = p_period), 0)::int FROM lapsed l;
$$;

-- In-flight places the workspace's reservations and leases hold, p_except's aside.
CREATE FUNCTION ai_places_held(p_workspace uuid, p_except uuid) RETURNS int
LANGUAGE sql AS $$
  SELECT coalesce(sum(r.places), 0)::int FROM ai_request r
  WHERE r.workspace_id = p_workspace AND r.status = 'reserved' AND r.id IS DISTINCT FROM p_except;
$$;

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
  remaining := remaining + ai_lapse(p_workspace, NULL, v_period);
  v_in_flight := ai_places_held(p_workspace, NULL);
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

-- Renews a process's lease, in one statement:
-- 1. gives back what the lease held and charges `p_costs` (per action in `p_actions`) out of it: the calls that
--    succeeded since the last renewal, written to the ledger as one settled row per action;
-- 2. holds again what the process's calls under way hold (`p_busy_credits`, `p_busy_places`), whatever is left;
-- 3. adds what one more call needs (`p_need_*`, zero when the process only reports): 'busy' when the in-flight cap
--    has no room for it, 'limit' when the credits are short, else 'granted' with up to `p_spare_*` more, each at most
--    an eighth of what is free, so a process never holds much that another could have used.
-- A lease that lapsed (its process stalled past the expiry) had its credits given back by another call: its
-- charges are then taken from what is left. A lease of an earlier month gives nothing back to this one.
-- low_alert: these charges are the first of the month to leave fewer than 10 % of the month's credits (the caller
-- marks the month's alert as sent and records ai.credits_low, as for ai_settle); alerted: it was sent before.
CREATE FUNCTION ai_lease(p_lease uuid, p_workspace uuid, p_actions text[], p_costs int[],
  p_busy_credits int, p_busy_places int, p_need_credits int, p_need_places int, p_spare_credits int, p_spare_places int,
  p_max_in_flight int, p_ttl_ms int,
  OUT outcome text, OUT credits int, OUT places int, OUT remaining int, OUT monthly int, OUT low_alert boolean,
  OUT alerted boolean, OUT credit_period timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_charged int := coalesce((SELECT sum(c) FROM unnest(p_costs) c), 0);
  v_held int;
  v_held_period timestamptz;
  v_others int;
  v_free_places int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  credit_period := date_trunc('month', now(), 'UTC');
  SELECT CASE WHEN w.ai_credits_period IS DISTINCT FROM credit_period THEN w.ai_credits_monthly ELSE w.ai_credits_remaining END,
         w.ai_credits_monthly,
         w.ai_credits_low_period IS NOT DISTINCT FROM credit_period
    INTO remaining, monthly, alerted FROM workspace w WHERE w.id = p_workspace FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'limit';
    credits := 0;
    places := 0;
    remaining := 0;
    low_alert := false;
    alerted := false;
    RETURN;
  END IF;
  remaining := remaining + ai_lapse(p_workspace, p_lease, credit_period);
  SELECT r.cost, r.period INTO v_held, v_held_period FROM ai_request r WHERE r.id = p_lease AND r.status = 'reserved';
  IF NOT FOUND THEN
    remaining := greatest(remaining - v_charged, 0);
  ELSIF v_held_period = credit_period THEN
    remaining := remaining + v_held - v_charged;
  END IF;
  IF v_charged > 0 THEN
    INSERT INTO ai_request (id, workspace_id, action, cost, period, status, places, expires_at, settled_at)
      SELECT gen_random_uuid(), p_workspace, a.action, a.cost, coalesce(v_held_period, credit_period), 'settled', 0, now(), now()
      FROM unnest(p_actions, p_costs) AS a(action, cost) WHERE a.cost > 0;
  END IF;
  low_alert := NOT alerted AND v_charged > 0 AND remaining * 10 < monthly;
  v_others := ai_places_held(p_workspace, p_lease);
  credits := least(p_busy_credits, remaining);
  places := p_busy_places;
  v_free_places := p_max_in_flight - v_others - places - p_need_places;
  IF p_need_places > 0 AND v_free_places < 0 THEN
    outcome := 'busy';
  ELSIF remaining - credits < p_need_credits THEN
    outcome := 'limit';
  ELSE
    outcome := 'granted';
    credits := credits + p_need_credits + least(p_spare_credits, (remaining - credits - p_need_credits) / 8);
    places := places + p_need_places + least(p_spare_places, greatest(v_free_places, 0) / 8);
  END IF;
  remaining := remaining - credits;
  IF credits > 0 OR places > 0 THEN
    INSERT INTO ai_request (id, workspace_id, action, cost, period, status, places, expires_at)
      VALUES (p_lease, p_workspace, 'lease', credits, credit_period, 'reserved', places, now() + p_ttl_ms * interval '1 millisecond')
      ON CONFLICT (id) DO UPDATE SET cost = excluded.cost, period = excluded.period, status = 'reserved',
        places = excluded.places, expires_at = excluded.expires_at;
  ELSE
    DELETE FROM ai_request r WHERE r.id = p_lease;
  END IF;
  UPDATE workspace SET ai_credits_remaining = remaining, ai_credits_period = credit_period WHERE id = p_workspace;
END;
$$;
