-- Customers' messages stored several to a transaction (issue 13, "Inbox at scale"). When
-- messages arrive faster than they are stored, the server hands the ones waiting for a
-- client to this function in one transaction: the transaction's begin, tenant set-up,
-- commit and WAL flush, and the events' statement, are paid once for all of them (pgbench
-- on the bench database: 8 messages a transaction carried 1.7 times the messages a second).
--
-- p_items is a jsonb array, in the order the messages arrived, of objects with the
-- arguments of inbox_receive_inbound: account, external_id, name, phone, email, notes,
-- provider_message_id, client_message_id, text, attachments, preview, sent_at. The answer
-- is a jsonb array in the same order: each element inbox_receive_inbound's answer, or
-- {"outcome": "failed", "sqlstate", "message"} for a message that raised an error. Each
-- message runs in its own subtransaction, so a failed one leaves nothing behind and the
-- others are kept; once a customer's message failed, that customer's later messages in the
-- batch are not attempted (answered failed too), so that the caller can store them again in
-- order.
--
-- Locks are taken in the order every other writer takes them, before any message is
-- stored: the customers' locks in key order (two batches never wait on each other's), then
-- the customers' open tickets in id order (an agent's transaction locks its ticket, then
-- the ticket counters; a batch that had already opened a ticket, and so held the counters,
-- must not then wait for an agent's ticket).
CREATE OR REPLACE FUNCTION inbox_receive_inbound_batch(
  p_client uuid,
  p_items jsonb,
  p_expiring_channels text[],
  p_expiry interval
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_key bigint;
  v_item jsonb;
  v_answer jsonb;
  v_answers jsonb := '[]'::jsonb;
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

  FOR v_item IN SELECT value FROM jsonb_array_elements(p_items) WITH ORDINALITY ORDER BY ordinality LOOP
    v_customer := lower(v_item->>'account') || ':' || (v_item->>'external_id');
    IF v_customer = ANY (v_failed) THEN
      v_answer := jsonb_build_object('outcome', 'failed', 'sqlstate', '',
        'message', 'an earlier message of this customer failed');
    ELSE
      BEGIN
        v_answer := inbox_receive_inbound(
          p_client, (v_item->>'account')::uuid, v_item->>'external_id', v_item->>'name',
          v_item->>'phone', v_item->>'email', v_item->>'notes',
          v_item->>'provider_message_id', v_item->>'client_message_id', v_item->>'text',
          v_item->'attachments', v_item->>'preview', (v_item->>'sent_at')::timestamptz,
          p_expiring_channels, p_expiry);
      EXCEPTION WHEN OTHERS THEN
        v_answer := jsonb_build_object('outcome', 'failed', 'sqlstate', SQLSTATE, 'message', SQLERRM);
        v_failed := v_failed || v_customer;
      END;
    END IF;
    v_answers := v_answers || jsonb_build_array(v_answer);
  END LOOP;
  RETURN v_answers;
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_receive_inbound_batch(uuid, jsonb, text[], interval) TO app_tenant;
