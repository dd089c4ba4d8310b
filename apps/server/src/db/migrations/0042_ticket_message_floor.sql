-- A ticket's messages are read over the room's index of messages, and the index by ticket is
-- gone (issue 13, "Inbox at scale"; bench/README.md, thirty-seventh stop). After each
-- checkpoint a message's first write to a page writes that page whole into the WAL, and every
-- conversation's messages sit on a page of their own in messages_ticket_idx as they do in
-- messages_room_idx: at 1,000 messages a second, 1,115-1,122 of the 5,018-5,161 pages written
-- whole in the 4 s after a checkpoint were that index's, one for each conversation, for reads
-- that the room's index can answer.
--
-- A ticket takes messages only while it is its room's open ticket (a closed one refuses them,
-- and a room holds one open ticket at a time), so its messages follow every message of the
-- room's earlier tickets and come before every message of its later ones. Each ticket keeps a
-- floor below its messages' ids: the messages' id sequence as it stood when the ticket was
-- made, which every id handed out later passes. A ticket's messages are then those of its
-- room with an id above its floor and not above the next ticket's (ticket-messages.ts).
CREATE OR REPLACE FUNCTION messages_id_floor() RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  SELECT coalesce(pg_sequence_last_value('messages_id_seq'::regclass), 0)
$$;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "message_floor" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Tickets made before this: just below their first message, or where the sequence stands now
-- for a ticket without one (its floor then bounds no earlier ticket's messages from above).
UPDATE "tickets" t SET "message_floor" =
  coalesce((SELECT min(m.id) - 1 FROM "messages" m WHERE m.ticket_id = t.id), messages_id_floor());
--> statement-breakpoint
ALTER TABLE "tickets" ALTER COLUMN "message_floor" SET DEFAULT messages_id_floor();
--> statement-breakpoint
-- An edited or removed message's parts are made again from their range of the room's messages.
CREATE OR REPLACE FUNCTION messages_search_words_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- An edited or removed message: the parts whose range holds it are made again from the
    -- messages that remain in that range (as in 0025).
    PERFORM 1 FROM tickets WHERE id = OLD.ticket_id FOR UPDATE;
    IF TG_OP = 'DELETE' AND NOT FOUND THEN
      RETURN NULL;
    END IF;
    UPDATE ticket_search s SET words = coalesce(
        (SELECT strip(to_tsvector('simple', string_agg(m.text, ' ' ORDER BY m.id))) FROM messages m
          WHERE m.room_id = OLD.room_id AND m.id BETWEEN s.first_message_id AND s.last_message_id
            AND m.ticket_id = OLD.ticket_id),
        ''::tsvector)
     WHERE s.ticket_id = OLD.ticket_id AND OLD.id BETWEEN s.first_message_id AND s.last_message_id;
    IF TG_OP = 'DELETE' OR FOUND THEN
      RETURN NULL;
    END IF;
    -- An edited message in no part (still waiting, or wordless when it came) waits again; the
    -- drainer reads its text as it is then.
    IF NEW.text <> '' THEN
      INSERT INTO ticket_search_backlog (client_id, message_id, ticket_id)
      VALUES (NEW.client_id, NEW.id, NEW.ticket_id) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END IF;
  IF NEW.text <> '' THEN
    INSERT INTO ticket_search_backlog (client_id, message_id, ticket_id)
    VALUES (NEW.client_id, NEW.id, NEW.ticket_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP INDEX "messages_ticket_idx";
