-- What storing a customer's message costs PostgreSQL, and which part of it each index of the
-- tickets and messages tables takes, in psql on the bench database (bench/README.md, twentieth
-- stop). Stores one message in each of the big client's :tickets most recently active open
-- tickets through inbox_receive_inbound_batch, in batches of :batch (25 unless given) as the
-- server's group commit sends them, and rolls everything back:
--
--   psql -d bench -v tickets=5000 -v drop='SELECT 1' -f bench/sql/ingest-micro.sql
--   psql -d bench -v tickets=5000 -v drop='DROP INDEX tickets_customer_name_trgm_idx' -f bench/sql/ingest-micro.sql
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
CREATE TEMP TABLE picks ON COMMIT DROP AS
  SELECT t.id AS ticket_id, i.channel_account_id AS account, i.external_id,
         row_number() OVER (ORDER BY t.last_message_at DESC) AS n
    FROM tickets t
    JOIN chat_rooms r ON r.id = t.room_id
    JOIN contact_identities i ON i.id = r.contact_identity_id
    JOIN channel_accounts a ON a.id = i.channel_account_id AND a.deleted_at IS NULL
   WHERE t.client_id = (SELECT id FROM clients WHERE slug = 'bench-big')
     AND t.status IN ('UNASSIGNED', 'ASSIGNED')
   ORDER BY t.last_message_at DESC
   LIMIT :tickets;
CREATE TEMP TABLE batches ON COMMIT DROP AS
  SELECT (n - 1) / :batch AS b,
         jsonb_agg(jsonb_build_object('account', account, 'external_id', external_id,
                                      'text', 'pesan uji nomor ' || n, 'preview', 'pesan uji nomor ' || n,
                                      'sent_at', clock_timestamp(), 'provider_message_id', 'micro-' || n)
                   ORDER BY n) AS items
    FROM picks GROUP BY 1;
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
