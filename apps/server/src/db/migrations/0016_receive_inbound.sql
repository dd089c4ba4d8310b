-- One customer message in one round trip (issue 13, "Inbox at scale"): what
-- ConversationService.receiveInbound did in about fifteen statements — the channel account,
-- the customer's lock, the identity, a repeat of the provider's or the sender's message id,
-- the contact (blank phone, e-mail and notes filled, never overwritten), the room, the open
-- ticket (opened when the room has none), the message, the ticket's preview, activity,
-- expiry and unread count, and the room's activity. It runs as the caller (row-level
-- security applies) inside the caller's transaction; the events stay in TypeScript.
--
-- Answers jsonb: {"outcome": "no_account"}, or {"outcome": "repeat", "message", "ticket",
-- "room_id", "identity_id"} for a message already stored, or {"outcome": "stored",
-- "message", "ticket", "room_id", "identity_id", "opened", "before", "counters"} where rows
-- are to_jsonb of messages and tickets, "before" the ticket's status and assignee before
-- this message (null when it opened the ticket) and "counters" the open-ticket counts after
-- a ticket was opened.
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
      (SELECT coalesce(jsonb_object_agg(scope, count), '{}'::jsonb) FROM ticket_counters
        WHERE client_id = p_client AND scope IN ('all', 'unassigned'))
    END);
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION inbox_receive_inbound(uuid, uuid, text, text, text, text, text, text, text, text,
  jsonb, text, timestamptz, text[], interval) TO app_tenant;
