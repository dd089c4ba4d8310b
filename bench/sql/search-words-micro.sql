-- What a customer's message costs the keyword search's words, in psql on the bench database
-- (bench/history.md, nineteenth stop). Stores :per messages in each of the big client's newest
-- :tickets tickets, each bringing a new word, then drains the search words backlog when the
-- build has one (migration 0030), and rolls everything back:
--
--   psql -d bench -v tickets=5000 -v per=1 -f bench/sql/search-words-micro.sql
--
-- The INSERT's time is what the messages' transactions pay; the drain's is the worker's. For
-- the build before 0030, restore 0025's messages_search_words_apply with CREATE OR REPLACE:
-- the INSERT then pays for the words itself and the drain finds nothing.
\timing on
BEGIN;
CREATE TEMP TABLE picks AS
  SELECT t.id AS ticket_id, (SELECT m.id FROM messages m WHERE m.ticket_id = t.id ORDER BY m.id LIMIT 1) AS mid
    FROM tickets t WHERE t.client_id = (SELECT id FROM clients WHERE slug = 'bench-big')
   ORDER BY t.created_at DESC LIMIT :tickets;
SELECT count(*), avg((SELECT length(words) FROM ticket_search s WHERE s.ticket_id = p.ticket_id ORDER BY part DESC LIMIT 1)) FROM picks p;
INSERT INTO messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type, sender_name, sender_ref, text, status)
SELECT m.client_id, m.room_id, m.ticket_id, m.channel_account_id, m.kind, m.direction, m.sender_type, m.sender_name, m.sender_ref,
       'pesan nomor zz' || g || 'x' || m.ticket_id, m.status
  FROM messages m JOIN picks p ON m.id = p.mid CROSS JOIN generate_series(1, :per) g ORDER BY g, m.ticket_id;
SELECT ticket_search_drain(1000000) AS drained WHERE to_regprocedure('ticket_search_drain(integer)') IS NOT NULL AND EXISTS (SELECT 1 FROM ticket_search_backlog);
ROLLBACK;
