-- A ticket's words in parts (issue 13, "Inbox at scale"). ticket_search held one row a
-- ticket, and each message that brought a new word rewrote the ticket's whole tsvector and
-- put every one of its words into the GIN index again: measured on PostgreSQL 15, about
-- 1.2 µs a word, 5.5 ms a message in a conversation of 4,000 words. A part now holds the words
-- of a run of consecutive messages, up to 256 words; a message adds its words to the
-- ticket's last part, or begins a new one when that part is full, so what a message costs
-- no longer grows with the conversation. A keyword matches a ticket when it matches one of
-- its parts (in a long conversation, words are matched within a stretch of it).
--
-- Rows made before this migration become part 0 covering every message id (first 0, last
-- the largest bigint): an edit rebuilds them from the whole ticket, as before.
ALTER TABLE "ticket_search" DROP CONSTRAINT "ticket_search_pkey";--> statement-breakpoint
ALTER TABLE "ticket_search" ADD COLUMN "part" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD COLUMN "first_message_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD COLUMN "last_message_id" bigint DEFAULT 9223372036854775807 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_search" ALTER COLUMN "last_message_id" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_ticket_id_part_pk" PRIMARY KEY("ticket_id","part");--> statement-breakpoint
-- One message's words into its ticket's last part. The last part is locked first, so two
-- messages of one ticket written at once take turns; a part made by both at once is merged.
-- A message that brings no new word only widens the part's message range (a HOT update:
-- words, the indexed column, do not change).
CREATE OR REPLACE FUNCTION ticket_search_append(p_ticket bigint, p_client uuid, p_message bigint, p_words tsvector)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_part integer;
  v_words tsvector;
  v_merged tsvector;
BEGIN
  SELECT part, words INTO v_part, v_words FROM ticket_search
   WHERE ticket_id = p_ticket ORDER BY part DESC LIMIT 1 FOR UPDATE;
  IF FOUND AND length(v_words) < 256 THEN
    v_merged := v_words || p_words;
    IF v_merged = v_words THEN
      UPDATE ticket_search SET last_message_id = greatest(last_message_id, p_message)
       WHERE ticket_id = p_ticket AND part = v_part AND last_message_id < p_message;
    ELSE
      UPDATE ticket_search SET words = v_merged, last_message_id = greatest(last_message_id, p_message)
       WHERE ticket_id = p_ticket AND part = v_part;
    END IF;
    RETURN;
  END IF;
  INSERT INTO ticket_search AS s (ticket_id, part, client_id, first_message_id, last_message_id, words)
  VALUES (p_ticket, coalesce(v_part + 1, 0), p_client, p_message, p_message, p_words)
  ON CONFLICT (ticket_id, part) DO UPDATE SET
    words = s.words || EXCLUDED.words,
    first_message_id = least(s.first_message_id, EXCLUDED.first_message_id),
    last_message_id = greatest(s.last_message_id, EXCLUDED.last_message_id);
END $$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION ticket_search_append(bigint, uuid, bigint, tsvector) TO app_tenant;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION messages_search_words_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_words tsvector;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- An edited or removed message: the parts whose range holds it are made again from the
    -- messages that remain in that range.
    UPDATE ticket_search s SET words = coalesce(
        (SELECT strip(to_tsvector('simple', string_agg(m.text, ' ' ORDER BY m.id))) FROM messages m
          WHERE m.ticket_id = OLD.ticket_id AND m.id BETWEEN s.first_message_id AND s.last_message_id),
        ''::tsvector)
     WHERE s.ticket_id = OLD.ticket_id AND OLD.id BETWEEN s.first_message_id AND s.last_message_id;
    -- Done, unless an edited message had no words when it arrived and so is in no part yet.
    IF TG_OP = 'DELETE' OR FOUND THEN
      RETURN NULL;
    END IF;
  END IF;
  IF NEW.text <> '' THEN
    v_words := strip(to_tsvector('simple', NEW.text));
    IF v_words <> ''::tsvector THEN
      PERFORM ticket_search_append(NEW.ticket_id, NEW.client_id, NEW.id, v_words);
    END IF;
  END IF;
  RETURN NULL;
END $$;
