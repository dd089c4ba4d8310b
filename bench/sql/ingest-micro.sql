-- What storing a customer's message costs PostgreSQL, and which part of it each index of the
-- tickets and messages tables takes, in psql on the bench database (bench/history.md, twentieth
-- stop). Stores one message in each of the big client's :tickets most recently active open
-- tickets through inbox_receive_inbound_batch, in batches of :batch (25 unless given) as the
-- server's group commit sends them, and rolls everything back:
--
--   psql -d bench -v tickets=5000 -v drop='SELECT 1' -f bench/sql/ingest-micro.sql
--   psql -d bench -v tickets=5000 -v drop='DROP INDEX tickets_customer_phone_trgm_idx' -f bench/sql/ingest-micro.sql
--   psql -d bench -v tickets=5000 -v drop='SELECT 1' -v batch=128 -f bench/sql/ingest-micro.sql
--
-- :drop runs inside the transaction before the messages are stored, so what it drops comes
-- back with the rollback. Every line's time is CPU and I/O only: the commit's flush, paid once
-- a batch by the server, is not in it. Alternate the variants: the host's speed drifts.
\timing off
\set QUIET on
\if :{?batch}
\else
  \set batch 25
\endif
BEGIN;
\set prefix micro-
\ir micro-batches.sql
:drop;
\set QUIET off
\timing on
SELECT a->>'outcome' AS outcome, (a->>'together')::boolean AS together, count(*)
  FROM batches
  CROSS JOIN LATERAL jsonb_array_elements(inbox_receive_inbound_batch(
         (SELECT id FROM clients WHERE slug = 'bench-big'), items,
         ARRAY['WHATSAPP', 'INSTAGRAM', 'FACEBOOK'], interval '24 hours')) AS a
 GROUP BY 1, 2;
\timing off
ROLLBACK;
