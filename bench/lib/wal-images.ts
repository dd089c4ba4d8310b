// What PostgreSQL's WAL holds over a stretch of a realtime run: how much was written, how many
// pages went in whole (the first change of each page after a checkpoint) and of which relations.
// The seconds after a checkpoint are where runs at 1,000 messages a second fell behind, and a
// page written whole costs 8 KB of WAL where its change alone costs a few dozen bytes
// (bench/history.md, thirty-second and thirty-sixth stops). Read with pg_walinspect (PostgreSQL
// 15 and later) by a user who may create it; elsewhere the run says why and goes on.
import pg from 'pg';

/** Where the WAL stood at a moment of the run, and how long before it the last checkpoint began. */
export interface WalMark {
  lsn: string;
  checkpointSecondsBefore: number;
}

/** What the WAL holds between two marks. */
export interface WalStretch {
  seconds: number;
  checkpointSecondsBefore: number;
  bytes: number;
  records: number;
  commits: number;
  /** Pages written whole, and the bytes of their images. */
  images: number;
  imageBytes: number;
  /** The relations with the most pages written whole, most first. */
  imagesByRelation: Array<{ relation: string; images: number }>;
}

async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The WAL's position now, and the seconds since the last checkpoint began; or why it cannot be read. */
export function walMark(databaseUrl: string): Promise<WalMark | string> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ lsn: string; since: number }>(
      `select pg_current_wal_lsn()::text as lsn,
              extract(epoch from clock_timestamp() - checkpoint_time)::float8 as since
         from pg_control_checkpoint()`,
    );
    return { lsn: rows[0].lsn, checkpointSecondsBefore: rows[0].since };
  }).catch((error: Error) => `the WAL's position could not be read (${error.message})`);
}

/**
 * What the WAL holds from `from` to `to`, `seconds` apart; a sentence saying why not where it
 * cannot be read (a mark that could not be read, no pg_walinspect, a user who may not create
 * it, or WAL already recycled).
 */
export function walStretch(
  databaseUrl: string,
  from: WalMark | string,
  to: WalMark | string,
  seconds: number,
): Promise<WalStretch | string> {
  if (typeof from === 'string') return Promise.resolve(from);
  if (typeof to === 'string') return Promise.resolve(to);
  const empty = { bytes: 0, records: 0, commits: 0, images: 0, imageBytes: 0, imagesByRelation: [] };
  const marks = { seconds, checkpointSecondsBefore: from.checkpointSecondsBefore };
  // Nothing written between them: pg_walinspect refuses a start it has not yet flushed past.
  if (from.lsn === to.lsn) return Promise.resolve({ ...marks, ...empty });
  return withClient(databaseUrl, async (client) => {
    try {
      await client.query('create extension if not exists pg_walinspect');
      // Every block reference of a record that carries its page's image is marked "(FPW)"; the
      // tablespace 0 stands for the database's own in pg_filenode_relation.
      const { rows } = await client.query<{
        bytes: string;
        records: number;
        commits: number;
        image_bytes: string;
        images: number;
        by_relation: Array<{ relation: string; images: number }> | null;
      }>(
        `with records as materialized (
           select resource_manager, record_type, fpi_length, block_ref
             from pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)
         ), images as (
           select m[1]::oid as tablespace, m[2]::oid as database, m[3]::oid as filenode
             from records, regexp_matches(block_ref, 'rel (\\d+)/(\\d+)/(\\d+) fork \\w+ blk \\d+ \\(FPW\\)', 'g') as m
            where fpi_length > 0
         ), named as (
           select case when i.database <> d.oid then 'another database'
                       else coalesce(pg_filenode_relation(
                              case when i.tablespace = d.dattablespace then 0 else i.tablespace end,
                              i.filenode)::text, 'a relation gone since') end as relation
             from images i cross join (select oid, dattablespace from pg_database
                                        where datname = current_database()) d
         )
         select pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::text as bytes,
                (select count(*)::int from records) as records,
                (select count(*)::int from records
                  where resource_manager = 'Transaction' and record_type = 'COMMIT') as commits,
                (select coalesce(sum(fpi_length), 0)::text from records) as image_bytes,
                (select count(*)::int from images) as images,
                (select json_agg(json_build_object('relation', relation, 'images', n) order by n desc, relation)
                   from (select relation, count(*)::int as n from named
                          group by relation order by n desc, relation limit 8) top) as by_relation`,
        [from.lsn, to.lsn],
      );
      const row = rows[0];
      return {
        ...marks,
        bytes: Number(row.bytes),
        records: row.records,
        commits: row.commits,
        images: row.images,
        imageBytes: Number(row.image_bytes),
        imagesByRelation: row.by_relation ?? [],
      };
    } catch (error) {
      return `the WAL could not be read (${(error as Error).message})`;
    }
  });
}

const megabytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** One line for the run's log. */
export function describeWalStretch(stretch: WalStretch | string): string {
  if (typeof stretch === 'string') return stretch;
  const relations = stretch.imagesByRelation
    .map((each) => `${each.relation} ${each.images.toLocaleString('en-US')}`)
    .join(', ');
  return (
    `WAL in the load's first ${stretch.seconds} s (the last checkpoint began ` +
    `${stretch.checkpointSecondsBefore.toFixed(1)} s before it): ${megabytes(stretch.bytes)} in ` +
    `${stretch.records.toLocaleString('en-US')} records, ${stretch.commits.toLocaleString('en-US')} commits; ` +
    `${stretch.images.toLocaleString('en-US')} pages written whole (${megabytes(stretch.imageBytes)})` +
    (relations ? `: ${relations}` : '')
  );
}
