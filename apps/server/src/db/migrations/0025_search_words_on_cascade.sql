-- A message deleted with its ticket (a room, a contact or a client deleted, whose cascade
-- removes tickets and messages in one statement) has no search words left to make again: its
-- ticket's parts go with the ticket. The trigger rewrote them anyway, and once a part had been
-- rewritten in the same transaction PostgreSQL checked the part's foreign key against the
-- ticket already gone, so deleting a room of two messages or more failed ("Key (ticket_id) is
-- not present in table tickets"). Found by the realtime bench deleting the rooms its run made
-- (issue 13, "Inbox at scale").
CREATE OR REPLACE FUNCTION messages_search_words_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_words tsvector;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- An edited or removed message: the parts whose range holds it are made again from the
    -- messages that remain in that range.
    PERFORM 1 FROM tickets WHERE id = OLD.ticket_id FOR UPDATE;
    -- A message removed with its ticket: the ticket's parts are removed with it.
    IF TG_OP = 'DELETE' AND NOT FOUND THEN
      RETURN NULL;
    END IF;
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
