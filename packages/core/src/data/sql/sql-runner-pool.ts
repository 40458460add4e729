import { DuckDbSqlRunner, type SqlRunnerOptions } from './duckdb-runner.ts';

/**
 * One SQL runner per organization, so that one organization's runaway query (killed with its
 * child process) never stops another's. A runner costs nothing until its first query and
 * ends its child process when idle; `closeAll` ends them all at shutdown.
 */
export class SqlRunnerPool {
  private readonly runners = new Map<string, DuckDbSqlRunner>();
  private readonly options: SqlRunnerOptions;

  constructor(options: SqlRunnerOptions = {}) {
    this.options = options;
  }

  forOrganization(orgId: string): DuckDbSqlRunner {
    let runner = this.runners.get(orgId);
    if (!runner) {
      runner = new DuckDbSqlRunner(this.options);
      this.runners.set(orgId, runner);
    }
    return runner;
  }

  async closeAll(): Promise<void> {
    const runners = [...this.runners.values()];
    this.runners.clear();
    await Promise.all(runners.map((runner) => runner.close()));
  }
}
