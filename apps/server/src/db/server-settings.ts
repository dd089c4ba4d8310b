import type { DatabaseHandle } from './client';

/** A PostgreSQL server setting below what the product asks for (README, "Running on PostgreSQL"). */
export interface SettingAdvice {
  name: string;
  value: string;
  wanted: string;
  /** What the setting costs customers' messages as it is. */
  why: string;
}

/** max_wal_size in MB under which checkpoints come from WAL volume rather than checkpoint_timeout. */
const wantedMaxWalSizeMb = 8192;

/**
 * The server-wide settings the product cannot set itself (they take a superuser) and asks the
 * operator for: without them, each checkpoint is followed by seconds in which customers'
 * messages wait for whole pages to be written into the WAL (bench/history.md, twenty-ninth
 * stop). PGlite serves one process and has nothing to advise.
 */
export async function postgresSettingsAdvice(database: DatabaseHandle): Promise<SettingAdvice[]> {
  if (database.driver !== 'postgres') return [];
  const rows = await database.query<{ name: string; setting: string; unit: string | null }>(
    `select name, setting, unit from pg_settings where name in ('wal_compression', 'max_wal_size')`,
  );
  const advice: SettingAdvice[] = [];
  for (const row of rows) {
    if (row.name === 'wal_compression' && row.setting === 'off') {
      advice.push({
        name: row.name,
        value: row.setting,
        wanted: 'lz4',
        why: 'the whole pages written into the WAL after each checkpoint go uncompressed, and messages wait for them',
      });
    }
    // pg_settings gives max_wal_size in MB.
    if (row.name === 'max_wal_size' && row.unit === 'MB' && Number(row.setting) < wantedMaxWalSizeMb) {
      advice.push({
        name: row.name,
        value: `${row.setting}MB`,
        wanted: '8GB',
        why: 'a busy inbox starts a checkpoint as often as every minute, each followed by seconds of slower messages',
      });
    }
  }
  return advice;
}
