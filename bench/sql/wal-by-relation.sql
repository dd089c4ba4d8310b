-- The WAL written between two positions, and of it the whole pages (full-page images) by
-- relation (bench/history.md, twenty-ninth and thirtieth stops), in psql on the bench database
-- with pg_walinspect (CREATE EXTENSION pg_walinspect, as a superuser). Take the positions from
-- pg_current_wal_insert_lsn(), sampled during a run, for instance every 250 ms:
--
--   (while sleep 0.25; do echo "select (extract(epoch from clock_timestamp()) * 1000)::bigint,
--     pg_current_wal_insert_lsn();"; done) | psql -d bench -At > wal.txt
--   psql -d bench -v from=3/B6B934F8 -v to=3/B89418B0 -f bench/sql/wal-by-relation.sql
--
-- A record's images are shared evenly among the pages it wrote whole. The WAL is the whole
-- server's, and relations are named from this database's catalog: measure with nothing else
-- writing. PostgreSQL keeps the WAL of the last checkpoints only: read soon after the run.
WITH r AS (SELECT * FROM pg_get_wal_records_info(:'from', :'to')),
     images AS (
       SELECT r.start_lsn, r.fpi_length, m[1]::oid AS node, count(*) OVER (PARTITION BY r.start_lsn) AS pages
         FROM r, regexp_matches(r.block_ref, 'rel \d+/\d+/(\d+) fork main blk \d+ \(FPW\)', 'g') AS m
        WHERE r.fpi_length > 0)
SELECT 'all' AS relation, pg_size_pretty(sum(record_length)) AS wal, pg_size_pretty(sum(fpi_length)) AS whole_pages,
       NULL::bigint AS pages
  FROM r
UNION ALL
SELECT * FROM (
  SELECT coalesce(pg_filenode_relation(0, node)::text, node::text), NULL,
         pg_size_pretty(sum(fpi_length / pages)::bigint), count(*)
    FROM images GROUP BY node ORDER BY sum(fpi_length / pages) DESC LIMIT 12) top;
