-- rate_limit_take may be told the time to count at (p_at), so that tests show how the bucket drains over minutes by
-- moving a clock instead of waiting. Without it (the service never passes one) the time is read after the row
-- lock, as before, so a call that waited for the lock does not drain the bucket from an earlier time.
DROP FUNCTION rate_limit_take(text, int, double precision, uuid, int, int, int);

CREATE FUNCTION rate_limit_take(
  p_subject text, p_limit int, p_period_ms double precision, p_holder uuid, p_give_back int, p_need int, p_want int,
  p_at timestamptz,
  OUT granted int, OUT available int, OUT bucket_level double precision)
LANGUAGE plpgsql AS $$
DECLARE
  stored rate_limit_bucket%ROWTYPE;
  taken_at timestamptz;
  gives_back boolean;
BEGIN
  INSERT INTO rate_limit_bucket (subject, level, at) VALUES (p_subject, 0, coalesce(p_at, clock_timestamp())) ON CONFLICT (subject) DO NOTHING;
  SELECT * INTO stored FROM rate_limit_bucket b WHERE b.subject = p_subject FOR UPDATE;
  taken_at := coalesce(p_at, clock_timestamp());
  bucket_level := greatest(0, least(stored.level, p_limit) - extract(epoch FROM taken_at - stored.at)::float8 * 1000 * p_limit / p_period_ms);
  gives_back := p_give_back > 0 AND stored.holder IS NOT DISTINCT FROM p_holder AND p_holder IS NOT NULL;
  IF gives_back THEN
    bucket_level := greatest(0, bucket_level - p_give_back);
  END IF;
  -- The epsilon absorbs float rounding, so a bucket drained to exactly one unit offers that unit.
  available := greatest(0, floor(p_limit - bucket_level + 1e-9))::int;
  granted := CASE WHEN available < p_need THEN 0
                  ELSE least(available, greatest(p_need, least(p_want, ceil(available / 8.0)::int))) END;
  available := available - granted;
  bucket_level := bucket_level + granted;
  IF granted > 0 OR gives_back THEN
    UPDATE rate_limit_bucket b SET level = bucket_level, at = taken_at, holder = p_holder WHERE b.subject = p_subject;
  END IF;
END;
$$;
