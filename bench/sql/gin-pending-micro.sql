-- What a full GIN pending list costs the customer's message that finds it full (bench/history.md,
-- twenty-second stop), in psql on the bench database. Stores one message in each of the big
-- client's :tickets most recently active open tickets through inbox_receive_inbound_batch, in
-- batches of 32 as the server's group commit sends them, times each batch, and rolls
-- everything back. With -v merge_every=N the GIN pending lists are merged after every N
-- batches (gin_pending_lists_clean, migration 0033), as the worker's keeper does every few
-- seconds; that merge is timed apart, since the keeper runs it in a transaction of its own:
--
--   psql -d bench -v tickets=12000 -v merge_every=0 -f bench/sql/gin-pending-micro.sql
--   psql -d bench -v tickets=12000 -v merge_every=30 -f bench/sql/gin-pending-micro.sql
--
-- Start each run from merged lists (`select gin_pending_lists_clean()`), and alternate them.
\set QUIET on
BEGIN;
SELECT set_config('micro.merge_every', :'merge_every', true);
\set batch 32
\set prefix gin-micro-
\ir micro-batches.sql
CREATE TEMP TABLE timings (b integer, kind text, ms double precision) ON COMMIT DROP;
DO $$
DECLARE
  v_client uuid := (SELECT id FROM clients WHERE slug = 'bench-big');
  v_every integer := current_setting('micro.merge_every')::integer;
  v_batch record;
  v_started timestamptz;
BEGIN
  FOR v_batch IN SELECT b, items FROM batches ORDER BY b LOOP
    v_started := clock_timestamp();
    PERFORM inbox_receive_inbound_batch(v_client, v_batch.items,
              ARRAY['WHATSAPP', 'INSTAGRAM', 'FACEBOOK'], interval '24 hours');
    INSERT INTO timings VALUES (v_batch.b, 'batch', extract(epoch FROM clock_timestamp() - v_started) * 1000);
    IF v_every > 0 AND (v_batch.b + 1) % v_every = 0 THEN
      v_started := clock_timestamp();
      PERFORM gin_pending_lists_clean();
      INSERT INTO timings VALUES (v_batch.b, 'merge', extract(epoch FROM clock_timestamp() - v_started) * 1000);
    END IF;
  END LOOP;
END $$;
\set QUIET off
SELECT kind, count(*) AS n, round(sum(ms)::numeric, 0) AS total_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS p50_ms,
       round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS p99_ms,
       round(max(ms)::numeric, 1) AS max_ms,
       count(*) FILTER (WHERE ms > 50) AS over_50_ms
  FROM timings GROUP BY kind ORDER BY kind;
ROLLBACK;
