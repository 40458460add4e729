import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/**
 * Loaded into a benchmarked server with `--import`: records how late the server's event loop
 * ran (perf_hooks' histogram) and writes the worst delay and the 99th percentile, in ms, to
 * DOCAGENT_BENCH_LOOP_FILE every 200 ms. SIGUSR2 starts a new measurement.
 *
 * `--import` loads this module into every worker thread too (the embedded database's, pdf.js's);
 * only the main thread, which serves the requests, is measured. A worker blocks its own loop by
 * design (PGlite runs each statement synchronously), could not be reset (signals reach the main
 * thread only), and wrote the same file.
 */
const file = process.env.DOCAGENT_BENCH_LOOP_FILE;
if (file && isMainThread) {
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  // Written aside and renamed, so that the benchmark never reads half a file.
  const write = () => {
    writeFileSync(
      `${file}.part`,
      JSON.stringify({ maxMs: delays.max / 1e6, p99Ms: delays.percentile(99) / 1e6, at: Date.now() }),
    );
    renameSync(`${file}.part`, file);
  };
  setInterval(write, 200).unref();
  process.on('SIGUSR2', () => {
    delays.reset();
    write();
  });
}
