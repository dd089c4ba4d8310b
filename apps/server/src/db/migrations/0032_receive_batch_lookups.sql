-- A batch of customers' messages without joins of its own lists (issue 13, "Inbox at scale").
-- The set statement of inbox_receive_inbound_batch (0021) joined the messages it stored to
-- the batch's resolved rows, in the tickets' UPDATE, the rooms' UPDATE and the answer, and the
-- answer to the updated tickets too. Each of those lists is a WITH query the planner guesses
-- at one row, so every join was a nested loop that read one list again for each row of the
-- other (auto_explain, twenty-first stop: 65,280 rows compared and dropped in each of the
-- four joins for a batch of 256, most of the statement's 175 ms). A message cost PostgreSQL
-- least in batches of 25 and more on either side: 0.27 ms at 25, 0.42 at 128, 0.62 at 256
-- (bench/sql/ingest-micro.sql). The stored messages are now one jsonb object keyed by their
-- tickets' ids, made once: the UPDATEs keep the rows whose ticket is in it, and the answer
-- finds a ticket's message there and its updated row in another such object. The rest is as
-- in 0021.
CREATE OR REPLACE FUNCTION inbox_receive_inbound_batch(
  p_client uuid,
  p_items jsonb,
  p_expiring_channels text[],
  p_expiry interval
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_key bigint;
  v_item record;
  v_answer jsonb;
  v_answers jsonb[] := array_fill(null::jsonb, ARRAY[jsonb_array_length(p_items)]);
  v_failed text[] := '{}';
  v_customer text;
BEGIN
  FOR v_key IN
    SELECT DISTINCT hashtextextended(lower(item->>'account') || ':' || (item->>'external_id'), 0)
      FROM jsonb_array_elements(p_items) AS item
     ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(v_key);
  END LOOP;

  -- The items become plain columns first (OFFSET 0 keeps them so). Joined on expressions
  -- over the jsonb, the identities were not looked up by index under row-level security:
  -- every identity of the client was read (60 ms at 620,000, whatever the batch's size).
  PERFORM 1
     FROM (SELECT CASE WHEN item->>'account' ~* '^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$'
                       THEN (item->>'account')::uuid END AS account,
                  item->>'external_id' AS external_id
             FROM jsonb_array_elements(p_items) AS item
           OFFSET 0) AS given
     JOIN contact_identities i ON i.channel_account_id = given.account AND i.external_id = given.external_id
     JOIN chat_rooms r ON r.contact_identity_id = i.id
     JOIN tickets t ON t.room_id = r.id AND t.status IN ('UNASSIGNED', 'ASSIGNED')
    WHERE i.client_id = p_client AND r.client_id = p_client AND t.client_id = p_client
    ORDER BY t.id
      FOR UPDATE OF t;

  -- The set path. Its answers land at their items' places; an item left without one goes
  -- the way below.
  BEGIN
    FOR v_item IN
      WITH given AS (
        SELECT g.*,
               CASE WHEN g.account ~* '^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$' THEN g.account::uuid END AS account_id,
               count(*) OVER (PARTITION BY lower(g.account), g.external_id) AS of_customer,
               count(*) OVER (PARTITION BY lower(g.account), g.provider_message_id) AS of_provider_id
          FROM ROWS FROM (jsonb_to_recordset(p_items) AS (
                 account text, external_id text, phone text, email text, notes text,
                 provider_message_id text, client_message_id text, text text, attachments jsonb,
                 preview text, sent_at timestamptz)) WITH ORDINALITY
               AS g(account, external_id, phone, email, notes, provider_message_id, client_message_id,
                    text, attachments, preview, sent_at, n)
        OFFSET 0
      ),
      -- The customers' rows; a repeat of a provider's or sender's id is looked for after
      -- (as a plain column, the sender is found by the index).
      found AS MATERIALIZED (
        SELECT g.n, g.account_id, g.text, g.attachments, g.preview, g.sent_at, g.provider_message_id,
               g.client_message_id, a.channel, i.id AS identity_id, 'identity:' || i.id::text AS sender_ref,
               c.name AS contact_name, r.id AS room_id, t.id AS ticket_id, t.status, t.assignee_id
          FROM given g
          JOIN channel_accounts a ON a.client_id = p_client AND a.id = g.account_id AND a.deleted_at IS NULL
          JOIN contact_identities i
            ON i.client_id = p_client AND i.channel_account_id = g.account_id AND i.external_id = g.external_id
          JOIN contacts c ON c.client_id = p_client AND c.id = i.contact_id
          JOIN chat_rooms r ON r.client_id = p_client AND r.contact_identity_id = i.id
          JOIN tickets t ON t.client_id = p_client AND t.room_id = r.id AND t.status IN ('UNASSIGNED', 'ASSIGNED')
         WHERE g.of_customer = 1
           AND (g.provider_message_id IS NULL OR g.of_provider_id = 1)
           AND NOT ((coalesce(c.phone, '') = '' AND coalesce(g.phone, '') <> '')
                 OR (coalesce(c.email, '') = '' AND coalesce(g.email, '') <> '')
                 OR (coalesce(c.notes, '') = '' AND coalesce(g.notes, '') <> ''))
      ),
      resolved AS (
        SELECT f.* FROM found f
         WHERE (f.provider_message_id IS NULL OR NOT EXISTS (
                 SELECT 1 FROM messages m
                  WHERE m.client_id = p_client AND m.channel_account_id = f.account_id
                    AND m.provider_message_id = f.provider_message_id))
           AND (f.client_message_id IS NULL OR NOT EXISTS (
                 SELECT 1 FROM messages m
                  WHERE m.client_id = p_client AND m.sender_ref = f.sender_ref
                    AND m.client_message_id = f.client_message_id))
      ),
      inserted AS (
        INSERT INTO messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type,
                              sender_id, sender_name, sender_ref, text, attachments, status,
                              provider_message_id, client_message_id, created_at, updated_at)
        SELECT p_client, room_id, ticket_id, account_id, 'PublicMessage', 'INBOUND', 'CUSTOMER',
               identity_id::text, contact_name, sender_ref, text,
               coalesce(attachments, '[]'::jsonb), 'DELIVERED', provider_message_id, client_message_id,
               sent_at, sent_at
          FROM resolved
         ORDER BY n
        ON CONFLICT DO NOTHING
        RETURNING *
      ),
      -- Each stored message by its ticket's id (one message a ticket in this path).
      stored AS (
        SELECT jsonb_object_agg(m.ticket_id::text, to_jsonb(m)) AS messages FROM inserted m
      ),
      -- Preview, activity and expiry move forward (never back); one more message is unread.
      updated AS (
        UPDATE tickets t SET
          last_message_preview = CASE WHEN t.last_message_at <= r.sent_at THEN r.preview ELSE t.last_message_preview END,
          last_message_at = greatest(t.last_message_at, r.sent_at),
          last_customer_message_at = greatest(t.last_customer_message_at, r.sent_at),
          expires_at = CASE WHEN r.channel = ANY (p_expiring_channels)
                            THEN greatest(t.expires_at, r.sent_at + p_expiry) ELSE t.expires_at END,
          unread_count = t.unread_count + 1,
          updated_at = clock_timestamp()
          FROM resolved r, stored s
         WHERE t.client_id = p_client AND t.id = r.ticket_id AND s.messages ? r.ticket_id::text
        RETURNING t.*
      ),
      -- Run though not read, as every data-modifying WITH is.
      moved AS (
        UPDATE chat_rooms room SET current_ticket_id = r.ticket_id,
                                   last_message_at = greatest(room.last_message_at, r.sent_at)
          FROM resolved r, stored s
         WHERE room.client_id = p_client AND room.id = r.room_id AND s.messages ? r.ticket_id::text
        RETURNING room.id
      ),
      -- MATERIALIZED: read once, it would be inlined and aggregated again for every row.
      ticketed AS MATERIALIZED (
        SELECT jsonb_object_agg(u.id::text, to_jsonb(u)) AS tickets FROM updated u
      )
      SELECT r.n, jsonb_build_object('outcome', 'stored', 'message', s.messages -> r.ticket_id::text,
               'ticket', k.tickets -> r.ticket_id::text,
               'room_id', r.room_id, 'identity_id', r.identity_id, 'opened', false,
               'before', jsonb_build_object('status', r.status, 'assignee_id', r.assignee_id),
               'counters', null, 'together', true) AS answer
        FROM resolved r, stored s, ticketed k
       WHERE s.messages ? r.ticket_id::text AND k.tickets ? r.ticket_id::text
    LOOP
      v_answers[v_item.n] := v_item.answer;
    END LOOP;
  EXCEPTION WHEN OTHERS THEN
    v_answers := array_fill(null::jsonb, ARRAY[jsonb_array_length(p_items)]);
  END;

  -- The rest, one by one in the order they arrived, each in its own subtransaction.
  FOR v_item IN SELECT value, ordinality AS n FROM jsonb_array_elements(p_items) WITH ORDINALITY ORDER BY ordinality LOOP
    CONTINUE WHEN v_answers[v_item.n] IS NOT NULL;
    v_customer := lower(v_item.value->>'account') || ':' || (v_item.value->>'external_id');
    IF v_customer = ANY (v_failed) THEN
      v_answer := jsonb_build_object('outcome', 'failed', 'sqlstate', '',
        'message', 'an earlier message of this customer failed');
    ELSE
      BEGIN
        v_answer := inbox_receive_inbound(
          p_client, (v_item.value->>'account')::uuid, v_item.value->>'external_id', v_item.value->>'name',
          v_item.value->>'phone', v_item.value->>'email', v_item.value->>'notes',
          v_item.value->>'provider_message_id', v_item.value->>'client_message_id', v_item.value->>'text',
          v_item.value->'attachments', v_item.value->>'preview', (v_item.value->>'sent_at')::timestamptz,
          p_expiring_channels, p_expiry);
      EXCEPTION WHEN OTHERS THEN
        v_answer := jsonb_build_object('outcome', 'failed', 'sqlstate', SQLSTATE, 'message', SQLERRM);
        v_failed := v_failed || v_customer;
      END;
    END IF;
    v_answers[v_item.n] := v_answer;
  END LOOP;
  RETURN to_jsonb(v_answers);
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_receive_inbound_batch(uuid, jsonb, text[], interval) TO app_tenant;
