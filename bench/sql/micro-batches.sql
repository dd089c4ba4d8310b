-- The micros' messages (ingest-micro.sql, gin-pending-micro.sql), inside their transaction: one
-- for each of the big client's :tickets most recently active open tickets, from the customer
-- of its room, grouped :batch to a batch as the server's group commit sends them, with
-- provider message ids starting with :prefix.
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
                                      'sent_at', clock_timestamp(), 'provider_message_id', :'prefix' || n)
                   ORDER BY n) AS items
    FROM picks GROUP BY 1;
