-- Every customer message updates its ticket's activity and its words (issue 13, "Inbox at
-- scale"). Activity is in the list's sort indexes and words in a GIN index, so none of these
-- updates is HOT: each leaves a dead row version and new entries in every index. At
-- PostgreSQL's defaults autovacuum waits for a fifth of a table to be dead (200,000 rows of a
-- million-ticket table) while the busiest tickets sit at the head of the indexes every list
-- reads first; in the bench, 20,000 messages into 700 tickets made a filtered first page 20
-- times slower until a VACUUM. These tables are vacuumed and analysed after 1% and 2%.
ALTER TABLE tickets SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
--> statement-breakpoint
ALTER TABLE ticket_search SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);
