-- Open-ticket counters in shards (issue 13, "Inbox at scale"; bench/README.md, thirty-fourth
-- stop). Every ticket opened, assigned, moved or closed adds to its client's `all` counter and
-- to `unassigned` or the agent's, in the transaction that changes the ticket, and a row so
-- updated stays locked until that transaction commits. So all such transactions of one client
-- queued on one row, each holding it through its commit's flush: at 16 connections, a
-- transaction that only adds to the counter ran 912 times a second with 17.5 ms of latency
-- (2,253 a second on one connection), and at a million tickets an assignment's UPDATE spent
-- 52.8 ms waiting on average, a new ticket's INSERT 3.6 ms.
--
-- Now a scope's count is the sum of up to 16 shards, and a connection adds to the shard of its
-- backend (pg_backend_pid() % 16): transactions on different connections mostly touch rows of
-- their own (4,382 a second at 16 connections; the assignment's UPDATE 2.6 ms, the INSERT 1.2
-- ms). One transaction keeps to one shard, so, as before, the first counter row any of them
-- locks is its shard's `all`, and two transactions cannot hold counter rows in crossed order.
-- Readers sum a scope's shards; the counts that a single inbound message answers with when it
-- opens a ticket are summed so too.
ALTER TABLE "ticket_counters" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_counters" DROP CONSTRAINT "ticket_counters_client_id_scope_pk";--> statement-breakpoint
ALTER TABLE "ticket_counters" ADD CONSTRAINT "ticket_counters_client_id_scope_shard_pk" PRIMARY KEY("client_id","scope","shard");--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counter_add(p_client uuid, p_scope text, p_delta integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO ticket_counters (client_id, scope, shard, count)
  VALUES (p_client, p_scope, (pg_backend_pid() % 16)::smallint, p_delta)
  ON CONFLICT (client_id, scope, shard) DO UPDATE SET count = ticket_counters.count + EXCLUDED.count;
$$;
--> statement-breakpoint
-- As in 0016, but for the counts' sum over shards.
CREATE OR REPLACE FUNCTION inbox_receive_inbound(
  p_client uuid,
  p_account uuid,
  p_external_id text,
  p_name text,
  p_phone text,
  p_email text,
  p_notes text,
  p_provider_message_id text,
  p_client_message_id text,
  p_text text,
  p_attachments jsonb,
  p_preview text,
  p_sent_at timestamptz,
  p_expiring_channels text[],
  p_expiry interval
) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_account channel_accounts;
  v_identity contact_identities;
  v_contact contacts;
  v_room chat_rooms;
  v_ticket tickets;
  v_message messages;
  v_repeat messages;
  v_opened boolean := false;
  v_before jsonb := null;
BEGIN
  SELECT * INTO v_account FROM channel_accounts
   WHERE client_id = p_client AND id = p_account AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('outcome', 'no_account');
  END IF;
  -- The same key lockCustomer takes: one customer's messages are stored one at a time.
  PERFORM pg_advisory_xact_lock(hashtextextended(p_account::text || ':' || p_external_id, 0));

  SELECT * INTO v_identity FROM contact_identities
   WHERE client_id = p_client AND channel_account_id = p_account AND external_id = p_external_id;

  FOR pass IN 1..2 LOOP
    -- A repeat answers the first delivery unchanged; the second pass runs only when the
    -- message's unique keys refused the insert below.
    v_repeat := null;
    IF p_provider_message_id IS NOT NULL THEN
      SELECT * INTO v_repeat FROM messages
       WHERE client_id = p_client AND channel_account_id = p_account
         AND provider_message_id = p_provider_message_id;
    END IF;
    IF v_repeat.id IS NULL AND p_client_message_id IS NOT NULL AND v_identity.id IS NOT NULL THEN
      SELECT * INTO v_repeat FROM messages
       WHERE client_id = p_client AND sender_ref = 'identity:' || v_identity.id
         AND client_message_id = p_client_message_id;
    END IF;
    IF v_repeat.id IS NOT NULL THEN
      SELECT * INTO v_ticket FROM tickets WHERE client_id = p_client AND id = v_repeat.ticket_id;
      SELECT * INTO v_room FROM chat_rooms WHERE client_id = p_client AND id = v_repeat.room_id;
      IF v_ticket.id IS NULL OR v_room.id IS NULL THEN
        RAISE EXCEPTION 'message % lost its ticket or room', v_repeat.id;
      END IF;
      RETURN jsonb_build_object('outcome', 'repeat', 'message', to_jsonb(v_repeat),
        'ticket', to_jsonb(v_ticket), 'room_id', v_room.id, 'identity_id', v_room.contact_identity_id);
    END IF;
    IF pass = 2 THEN
      RAISE EXCEPTION 'inbound message was neither stored nor found';
    END IF;

    IF v_identity.id IS NOT NULL THEN
      SELECT * INTO v_contact FROM contacts WHERE client_id = p_client AND id = v_identity.contact_id;
      IF v_contact.id IS NOT NULL AND (
           (coalesce(v_contact.phone, '') = '' AND coalesce(p_phone, '') <> '')
        OR (coalesce(v_contact.email, '') = '' AND coalesce(p_email, '') <> '')
        OR (coalesce(v_contact.notes, '') = '' AND coalesce(p_notes, '') <> '')) THEN
        UPDATE contacts SET
          phone = CASE WHEN coalesce(phone, '') = '' AND coalesce(p_phone, '') <> '' THEN p_phone ELSE phone END,
          email = CASE WHEN coalesce(email, '') = '' AND coalesce(p_email, '') <> '' THEN p_email ELSE email END,
          notes = CASE WHEN coalesce(notes, '') = '' AND coalesce(p_notes, '') <> '' THEN p_notes ELSE notes END,
          updated_at = clock_timestamp()
         WHERE client_id = p_client AND id = v_contact.id
        RETURNING * INTO v_contact;
      END IF;
    END IF;
    IF v_identity.id IS NULL OR v_contact.id IS NULL THEN
      INSERT INTO contacts (client_id, name, phone, email, notes)
      VALUES (p_client, p_name, p_phone, p_email, p_notes)
      RETURNING * INTO v_contact;
      INSERT INTO contact_identities (client_id, contact_id, channel_account_id, external_id)
      VALUES (p_client, v_contact.id, p_account, p_external_id)
      RETURNING * INTO v_identity;
    END IF;

    SELECT * INTO v_room FROM chat_rooms WHERE client_id = p_client AND contact_identity_id = v_identity.id;
    IF NOT FOUND THEN
      INSERT INTO chat_rooms (client_id, channel_account_id, channel, contact_id, contact_identity_id,
                              name, customer_phone_number)
      VALUES (p_client, p_account, v_account.channel, v_contact.id, v_identity.id, v_contact.name, v_contact.phone)
      RETURNING * INTO v_room;
    END IF;

    SELECT * INTO v_ticket FROM tickets
     WHERE client_id = p_client AND room_id = v_room.id AND status IN ('UNASSIGNED', 'ASSIGNED');
    IF NOT FOUND THEN
      INSERT INTO tickets (client_id, room_id, contact_id, channel_account_id, channel, customer_name,
                           customer_phone, customer_email, created_at, last_message_at)
      VALUES (p_client, v_room.id, v_contact.id, p_account, v_account.channel, v_contact.name,
              v_contact.phone, v_contact.email, p_sent_at, p_sent_at)
      ON CONFLICT (room_id) WHERE status in ('UNASSIGNED', 'ASSIGNED') DO NOTHING
      RETURNING * INTO v_ticket;
      v_opened := FOUND;
      IF NOT v_opened THEN
        SELECT * INTO v_ticket FROM tickets
         WHERE client_id = p_client AND room_id = v_room.id AND status IN ('UNASSIGNED', 'ASSIGNED');
        IF NOT FOUND THEN
          RAISE EXCEPTION 'room % has no open ticket after opening one', v_room.id;
        END IF;
      END IF;
    END IF;

    INSERT INTO messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type,
                          sender_id, sender_name, sender_ref, text, attachments, status,
                          provider_message_id, client_message_id, created_at, updated_at)
    VALUES (p_client, v_room.id, v_ticket.id, p_account, 'PublicMessage', 'INBOUND', 'CUSTOMER',
            v_identity.id::text, v_contact.name, 'identity:' || v_identity.id, p_text,
            coalesce(p_attachments, '[]'::jsonb), 'DELIVERED', p_provider_message_id, p_client_message_id,
            p_sent_at, p_sent_at)
    ON CONFLICT DO NOTHING
    RETURNING * INTO v_message;
    EXIT WHEN FOUND;
    -- Only a provider id reused by another customer of the account lands here: the next
    -- pass finds the first message.
  END LOOP;

  IF NOT v_opened THEN
    v_before := jsonb_build_object('status', v_ticket.status, 'assignee_id', v_ticket.assignee_id);
  END IF;
  -- Preview, activity and expiry move forward (never back, should messages arrive out of
  -- order); one more message is unread.
  UPDATE tickets SET
    last_message_preview = CASE WHEN last_message_at <= p_sent_at THEN p_preview ELSE last_message_preview END,
    last_message_at = greatest(last_message_at, p_sent_at),
    last_customer_message_at = greatest(last_customer_message_at, p_sent_at),
    expires_at = CASE WHEN v_account.channel = ANY (p_expiring_channels)
                      THEN greatest(expires_at, p_sent_at + p_expiry) ELSE expires_at END,
    unread_count = unread_count + 1,
    updated_at = clock_timestamp()
   WHERE client_id = p_client AND id = v_ticket.id
  RETURNING * INTO v_ticket;
  UPDATE chat_rooms SET current_ticket_id = v_ticket.id, last_message_at = greatest(last_message_at, p_sent_at)
   WHERE client_id = p_client AND id = v_room.id;

  RETURN jsonb_build_object('outcome', 'stored', 'message', to_jsonb(v_message), 'ticket', to_jsonb(v_ticket),
    'room_id', v_room.id, 'identity_id', v_identity.id, 'opened', v_opened, 'before', v_before,
    'counters', CASE WHEN v_opened THEN
      (SELECT coalesce(jsonb_object_agg(c.scope, c.count), '{}'::jsonb)
         FROM (SELECT scope, sum(count)::integer AS count FROM ticket_counters
                WHERE client_id = p_client AND scope IN ('all', 'unassigned') GROUP BY scope) c)
    END);
END $$;
