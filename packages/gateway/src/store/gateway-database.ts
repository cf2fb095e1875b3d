import Database from 'better-sqlite3';

/** A connection to the gateway's tables in a SQLite file: WAL, full sync, a 5 s busy timeout. */
export function openGatewayDatabase(path: string): Database.Database {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  return database;
}
