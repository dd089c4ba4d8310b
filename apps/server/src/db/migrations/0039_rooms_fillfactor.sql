-- Room on each page for a room's next version (issue 13, "Inbox at scale"; bench/README.md,
-- thirty-second stop). Every customer's message rewrites its room (the current ticket, the
-- last message's time), and neither column is indexed, so the new version could stay on its
-- page, leaving the indexes alone, if the page had room. Rooms were packed full: 23% of their
-- updates stayed on the page, and each of the others wrote a new entry into all four of the
-- room's indexes, three of them keyed by random ids, so on pages of their own (after a
-- checkpoint, each one a full page in the WAL). A room's row is about 200 bytes. Pages
-- written before this keep no room until they are rewritten (VACUUM FULL chat_rooms, at a
-- quiet hour); a room moved off its full page lands on one that has room.
ALTER TABLE "chat_rooms" SET (fillfactor = 80);
