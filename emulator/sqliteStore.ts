/**
 * SQLite-backed {@link Store} (better-sqlite3, synchronous). Rows are kept as JSON documents keyed by id;
 * the emulator's data set is small, so simplicity wins over normalised columns.
 *
 * better-sqlite3 is an optional peer dependency (a native build that provider users should not pay
 * for), so it is loaded only when a data file is asked for.
 */
import type Database from "better-sqlite3";
import type { ClusterRow, CounterRow, DelegationRow, EndpointRow, JobRow, NetworkVolumeRow, PodRow, RegistryAuthRow, Store, TemplateRow } from "./store";

/** The optional package persistence needs. */
const SQLITE_PACKAGE = "better-sqlite3";

/**
 * Loads better-sqlite3.
 * @throws Error naming the package and the command that installs it when it is missing, or saying it
 *   failed to load (e.g. built for another Node.js version) with the loader's reason.
 */
function loadDriver(): typeof Database {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(SQLITE_PACKAGE) as typeof Database;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "MODULE_NOT_FOUND" && err.message.includes(`'${SQLITE_PACKAGE}'`)) {
      throw new Error(
        `a data file (--data / dataFile) needs the optional package ${SQLITE_PACKAGE}, which is not installed: ` +
          `run \`npm install ${SQLITE_PACKAGE}\` next to pulumi-runpod, or leave the data file out to keep the state in memory`,
      );
    }
    throw new Error(`${SQLITE_PACKAGE} is installed but could not be loaded (try \`npm rebuild ${SQLITE_PACKAGE}\`): ${err.message}`);
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS endpoints (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS templates (id TEXT PRIMARY KEY, user_id TEXT, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS registry_auths (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS network_volumes (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pods (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clusters (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS delegations (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seeded (key TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, endpoint_id TEXT NOT NULL, created_at INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS jobs_endpoint ON jobs (endpoint_id);
CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, count INTEGER NOT NULL);
`;

export class SqliteStore implements Store {
  private db: Database.Database;
  private stmts;

  /**
   * Opens (creating if needed) the database file at `path`.
   * @throws Error when better-sqlite3 is missing or cannot be loaded (see {@link loadDriver}).
   */
  constructor(path: string) {
    const Driver = loadDriver();
    this.db = new Driver(path);
    this.db.pragma("journal_mode = WAL");
    this.db.exec(SCHEMA);
    const db = this.db;
    this.stmts = {
      listAll: db.prepare("SELECT doc FROM endpoints ORDER BY created_at, id"),
      listUser: db.prepare("SELECT doc FROM endpoints WHERE user_id = ? ORDER BY created_at, id"),
      getEndpoint: db.prepare("SELECT doc FROM endpoints WHERE id = ?"),
      putEndpoint: db.prepare("INSERT OR REPLACE INTO endpoints (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deleteEndpoint: db.prepare("DELETE FROM endpoints WHERE id = ?"),
      listTemplatesAll: db.prepare("SELECT doc FROM templates ORDER BY created_at, id"),
      listTemplatesUser: db.prepare("SELECT doc FROM templates WHERE user_id = ? ORDER BY created_at, id"),
      getTemplate: db.prepare("SELECT doc FROM templates WHERE id = ?"),
      putTemplate: db.prepare("INSERT OR REPLACE INTO templates (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deleteTemplate: db.prepare("DELETE FROM templates WHERE id = ?"),
      listAuthsAll: db.prepare("SELECT doc FROM registry_auths ORDER BY created_at, id"),
      listAuthsUser: db.prepare("SELECT doc FROM registry_auths WHERE user_id = ? ORDER BY created_at, id"),
      getAuth: db.prepare("SELECT doc FROM registry_auths WHERE id = ?"),
      putAuth: db.prepare("INSERT OR REPLACE INTO registry_auths (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deleteAuth: db.prepare("DELETE FROM registry_auths WHERE id = ?"),
      listVolumesAll: db.prepare("SELECT doc FROM network_volumes ORDER BY created_at, id"),
      listVolumesUser: db.prepare("SELECT doc FROM network_volumes WHERE user_id = ? ORDER BY created_at, id"),
      getVolume: db.prepare("SELECT doc FROM network_volumes WHERE id = ?"),
      putVolume: db.prepare("INSERT OR REPLACE INTO network_volumes (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deleteVolume: db.prepare("DELETE FROM network_volumes WHERE id = ?"),
      listPodsAll: db.prepare("SELECT doc FROM pods ORDER BY created_at, id"),
      listPodsUser: db.prepare("SELECT doc FROM pods WHERE user_id = ? ORDER BY created_at, id"),
      getPod: db.prepare("SELECT doc FROM pods WHERE id = ?"),
      putPod: db.prepare("INSERT OR REPLACE INTO pods (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deletePod: db.prepare("DELETE FROM pods WHERE id = ?"),
      listClustersAll: db.prepare("SELECT doc FROM clusters ORDER BY created_at, id"),
      listClustersUser: db.prepare("SELECT doc FROM clusters WHERE user_id = ? ORDER BY created_at, id"),
      getCluster: db.prepare("SELECT doc FROM clusters WHERE id = ?"),
      putCluster: db.prepare("INSERT OR REPLACE INTO clusters (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deleteCluster: db.prepare("DELETE FROM clusters WHERE id = ?"),
      listDelegationsAll: db.prepare("SELECT doc FROM delegations ORDER BY created_at, id"),
      listDelegationsUser: db.prepare("SELECT doc FROM delegations WHERE user_id = ? ORDER BY created_at, id"),
      getDelegation: db.prepare("SELECT doc FROM delegations WHERE id = ?"),
      putDelegation: db.prepare("INSERT OR REPLACE INTO delegations (id, user_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      deleteDelegation: db.prepare("DELETE FROM delegations WHERE id = ?"),
      getSetting: db.prepare("SELECT value FROM settings WHERE key = ?"),
      putSetting: db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)"),
      isSeeded: db.prepare("SELECT 1 FROM seeded WHERE key = ?"),
      markSeeded: db.prepare("INSERT OR IGNORE INTO seeded (key) VALUES (?)"),
      getJob: db.prepare("SELECT doc FROM jobs WHERE id = ?"),
      putJob: db.prepare("INSERT OR REPLACE INTO jobs (id, endpoint_id, created_at, doc) VALUES (?, ?, ?, ?)"),
      listJobs: db.prepare("SELECT doc FROM jobs WHERE endpoint_id = ? ORDER BY created_at, id"),
      deleteJob: db.prepare("DELETE FROM jobs WHERE id = ?"),
      deleteJobs: db.prepare("DELETE FROM jobs WHERE endpoint_id = ?"),
      getCounter: db.prepare("SELECT window_start AS windowStart, count FROM counters WHERE key = ?"),
      putCounter: db.prepare("INSERT OR REPLACE INTO counters (key, window_start, count) VALUES (?, ?, ?)"),
    };
  }

  listEndpoints(userId?: string): EndpointRow[] {
    const rows = (userId === undefined ? this.stmts.listAll.all() : this.stmts.listUser.all(userId)) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc));
  }
  getEndpoint(id: string): EndpointRow | undefined {
    const row = this.stmts.getEndpoint.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putEndpoint(row: EndpointRow): void {
    this.stmts.putEndpoint.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deleteEndpoint(id: string): void {
    this.stmts.deleteEndpoint.run(id);
  }
  private static docs<T>(rows: unknown[]): T[] {
    return (rows as { doc: string }[]).map((r) => JSON.parse(r.doc));
  }
  listTemplates(userId?: string): TemplateRow[] {
    return SqliteStore.docs(userId === undefined ? this.stmts.listTemplatesAll.all() : this.stmts.listTemplatesUser.all(userId));
  }
  getTemplate(id: string): TemplateRow | undefined {
    const row = this.stmts.getTemplate.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putTemplate(row: TemplateRow): void {
    this.stmts.putTemplate.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deleteTemplate(id: string): void {
    this.stmts.deleteTemplate.run(id);
  }
  listRegistryAuths(userId?: string): RegistryAuthRow[] {
    return SqliteStore.docs(userId === undefined ? this.stmts.listAuthsAll.all() : this.stmts.listAuthsUser.all(userId));
  }
  getRegistryAuth(id: string): RegistryAuthRow | undefined {
    const row = this.stmts.getAuth.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putRegistryAuth(row: RegistryAuthRow): void {
    this.stmts.putAuth.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deleteRegistryAuth(id: string): void {
    this.stmts.deleteAuth.run(id);
  }
  listNetworkVolumes(userId?: string): NetworkVolumeRow[] {
    return SqliteStore.docs(userId === undefined ? this.stmts.listVolumesAll.all() : this.stmts.listVolumesUser.all(userId));
  }
  getNetworkVolume(id: string): NetworkVolumeRow | undefined {
    const row = this.stmts.getVolume.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putNetworkVolume(row: NetworkVolumeRow): void {
    this.stmts.putVolume.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deleteNetworkVolume(id: string): void {
    this.stmts.deleteVolume.run(id);
  }
  listPods(userId?: string): PodRow[] {
    return SqliteStore.docs(userId === undefined ? this.stmts.listPodsAll.all() : this.stmts.listPodsUser.all(userId));
  }
  getPod(id: string): PodRow | undefined {
    const row = this.stmts.getPod.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putPod(row: PodRow): void {
    this.stmts.putPod.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deletePod(id: string): void {
    this.stmts.deletePod.run(id);
  }
  listClusters(userId?: string): ClusterRow[] {
    return SqliteStore.docs(userId === undefined ? this.stmts.listClustersAll.all() : this.stmts.listClustersUser.all(userId));
  }
  getCluster(id: string): ClusterRow | undefined {
    const row = this.stmts.getCluster.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putCluster(row: ClusterRow): void {
    this.stmts.putCluster.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deleteCluster(id: string): void {
    this.stmts.deleteCluster.run(id);
  }
  listDelegations(userId?: string): DelegationRow[] {
    return SqliteStore.docs(userId === undefined ? this.stmts.listDelegationsAll.all() : this.stmts.listDelegationsUser.all(userId));
  }
  getDelegation(id: string): DelegationRow | undefined {
    const row = this.stmts.getDelegation.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putDelegation(row: DelegationRow): void {
    this.stmts.putDelegation.run(row.id, row.userId, row.createdAt, JSON.stringify(row));
  }
  deleteDelegation(id: string): void {
    this.stmts.deleteDelegation.run(id);
  }
  getSetting(key: string): string | undefined {
    return (this.stmts.getSetting.get(key) as { value: string } | undefined)?.value;
  }
  putSetting(key: string, value: string): void {
    this.stmts.putSetting.run(key, value);
  }
  isSeeded(key: string): boolean {
    return this.stmts.isSeeded.get(key) !== undefined;
  }
  markSeeded(key: string): void {
    this.stmts.markSeeded.run(key);
  }
  getJob(id: string): JobRow | undefined {
    const row = this.stmts.getJob.get(id) as { doc: string } | undefined;
    return row && JSON.parse(row.doc);
  }
  putJob(row: JobRow): void {
    this.stmts.putJob.run(row.id, row.endpointId, row.createdAt, JSON.stringify(row));
  }
  listJobs(endpointId: string): JobRow[] {
    return (this.stmts.listJobs.all(endpointId) as { doc: string }[]).map((r) => JSON.parse(r.doc));
  }
  deleteJob(id: string): void {
    this.stmts.deleteJob.run(id);
  }
  deleteJobsOf(endpointId: string): void {
    this.stmts.deleteJobs.run(endpointId);
  }
  getCounter(key: string): CounterRow | undefined {
    return this.stmts.getCounter.get(key) as CounterRow | undefined;
  }
  putCounter(key: string, row: CounterRow): void {
    this.stmts.putCounter.run(key, row.windowStart, row.count);
  }
  close(): void {
    if (this.db.open) this.db.close();
  }
}
