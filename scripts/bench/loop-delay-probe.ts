import { rename, writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/**
 * Loaded into a benchmarked server with `--import`: records how late the server's event loop
 * ran (perf_hooks' histogram) and writes the worst delay and the 99th percentile, in ms, to
 * DOCAGENT_BENCH_LOOP_FILE every 200 ms. SIGUSR2 starts a new measurement. The file is written off
 * the thread (fs/promises): a synchronous write and rename took 0.7 to 2.7 ms of the measured
 * thread each on these machines, five times a second.
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
  let writing = false;
  // Written aside and renamed, so that the benchmark never reads half a file; one write at a
  // time, so that an older figure never lands after a newer one.
  const write = async () => {
    if (writing) return;
    writing = true;
    try {
      const figures = { maxMs: delays.max / 1e6, p99Ms: delays.percentile(99) / 1e6, at: Date.now() };
      await writeFile(`${file}.part`, JSON.stringify(figures));
      await rename(`${file}.part`, file);
    } finally {
      writing = false;
    }
  };
  setInterval(write, 200).unref();
  process.on('SIGUSR2', () => {
    delays.reset();
    void write();
  });
}
