import type { DatasetServices } from '../datasets/dataset-services.ts';
import type { ExecutionLimits, PythonExecutor, SqlExecutor } from '../executors.ts';

/** The SQL and Python executors every data run goes through. */
export interface DataExecutors {
  /** The organization's SQL executor: one runner (child process) per organization. */
  sqlFor(orgId: string): SqlExecutor;
  python: PythonExecutor;
}

export interface DataRunServices extends DatasetServices, DataExecutors {
  /** What one run may return and take; the executors' defaults where unset. */
  limits: Partial<ExecutionLimits>;
}
