-- What a search part's rewrite costs as the part grows (bench/history.md, twenty-seventh stop),
-- in psql on the bench database. A drain that brings a new word to a ticket rewrites the
-- ticket's last part (migrations 0018, 0030), and a GIN index takes every word of the new row
-- version, in both words indexes. This copies :parts of the big client's newest parts into a
-- scratch table with the same two indexes, once as they are and once with four times their
-- words, then times :rounds statements of :per rewrites each, every rewrite adding one new
-- word to one part (as a drain does), and the merge of the pending lists after them (as the
-- worker's keeper does); then the same again with the plain words index dropped. WAL is the
-- change of pg_current_wal_lsn() over each step. It drops its tables at the end:
--
--   psql -d bench -v parts=40000 -v rounds=20 -v per=500 -f bench/sql/search-part-size-micro.sql
--
-- Twenty-seventh stop, AMD EPYC 2 vCPU: parts of 54 words 1.8-2.0 s for 10,000 rewrites with
-- both indexes (1.6 s with the dated one only); parts of 214 words 8.2-8.3 s (4.4-5.4 s).
\set QUIET on
\pset tuples_only on
DROP TABLE IF EXISTS part_micro_small, part_micro_large;
CREATE TABLE part_micro_small AS
  SELECT ticket_id, part, words, created_day FROM ticket_search
   WHERE client_id = (SELECT id FROM clients WHERE slug = 'bench-big') AND length(words) > 0
   ORDER BY ticket_id DESC LIMIT :parts;
-- Each word four times, made distinct by a suffix.
CREATE TABLE part_micro_large AS
  SELECT ticket_id, part, created_day,
         array_to_tsvector(array(SELECT w || s FROM unnest(tsvector_to_array(words)) w,
                                                    unnest(ARRAY['', 'a', 'b', 'c']) s)) AS words
    FROM part_micro_small;
CREATE INDEX part_micro_small_words ON part_micro_small USING gin (words);
CREATE INDEX part_micro_small_dated ON part_micro_small USING gin (ticket_search_dated(words, created_day));
CREATE INDEX part_micro_large_words ON part_micro_large USING gin (words);
CREATE INDEX part_micro_large_dated ON part_micro_large USING gin (ticket_search_dated(words, created_day));
VACUUM ANALYZE part_micro_small;
VACUUM ANALYZE part_micro_large;

CREATE FUNCTION pg_temp.rewrite_parts(p_table regclass, p_tag text, p_rounds integer, p_per integer)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_lsn0 pg_lsn := pg_current_wal_lsn();
  v_t0 timestamptz := clock_timestamp();
  v_lsn1 pg_lsn;
  v_t1 timestamptz;
  v_words numeric;
  i integer;
BEGIN
  EXECUTE format('SELECT avg(length(words)) FROM %s', p_table) INTO v_words;
  FOR i IN 0 .. p_rounds - 1 LOOP
    EXECUTE format(
      'UPDATE %1$s SET words = words || array_to_tsvector(ARRAY[%2$L || ticket_id])
        WHERE ticket_id IN (SELECT ticket_id FROM %1$s ORDER BY ticket_id OFFSET $1 LIMIT $2)',
      p_table, p_tag) USING i * p_per, p_per;
  END LOOP;
  v_lsn1 := pg_current_wal_lsn();
  v_t1 := clock_timestamp();
  PERFORM gin_clean_pending_list(i.indexrelid::regclass) FROM pg_index i WHERE i.indrelid = p_table
     AND (SELECT amname FROM pg_am a JOIN pg_class c ON c.relam = a.oid WHERE c.oid = i.indexrelid) = 'gin';
  RETURN format('%s (%s words a part, words indexes: %s): %s rewrites %s ms, WAL %s; merge %s ms, WAL %s',
    p_table, round(v_words), (SELECT count(*) FROM pg_index WHERE indrelid = p_table AND indisprimary IS FALSE),
    p_rounds * p_per, round(extract(epoch FROM v_t1 - v_t0) * 1000),
    pg_size_pretty(pg_wal_lsn_diff(v_lsn1, v_lsn0)),
    round(extract(epoch FROM clock_timestamp() - v_t1) * 1000),
    pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), v_lsn1)));
END $$;

SELECT pg_temp.rewrite_parts('part_micro_small', 'neu1', :rounds, :per);
SELECT pg_temp.rewrite_parts('part_micro_large', 'neu1', :rounds, :per);
DROP INDEX part_micro_small_words;
DROP INDEX part_micro_large_words;
SELECT pg_temp.rewrite_parts('part_micro_small', 'neu2', :rounds, :per);
SELECT pg_temp.rewrite_parts('part_micro_large', 'neu2', :rounds, :per);
DROP TABLE part_micro_small, part_micro_large;
