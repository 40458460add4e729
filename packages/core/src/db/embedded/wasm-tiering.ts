import v8 from 'node:v8';

/**
 * V8 flags that keep the embedded database's WebAssembly (PGlite, PostgreSQL compiled to wasm) on
 * V8's baseline compiler, Liftoff, for processes that use it for seconds, not hours.
 *
 * By default V8 recompiles every wasm function that gets hot with its optimizing compiler,
 * TurboFan, in background threads. Starting PostgreSQL makes hundreds of functions hot, so a
 * process that opens a data folder, runs a few statements and exits spends about 2 s of CPU
 * (and 400 MB of memory) after its work on code it never runs: an admin command took 4.5 s, 2.6 s
 * with these flags. For a server that runs for hours the optimized code pays for itself (about 15 %
 * faster on a statement-heavy load), so `serve`, `worker` and `mcp` keep V8's default.
 *
 * Both flags are needed: with dynamic tiering on, `--no-wasm-tier-up` alone changes nothing.
 */
export const BASELINE_WASM_FLAGS: readonly string[] = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];

/**
 * The same, set in a running process: V8 reads them when a module is compiled, so this works if
 * called before the embedded database first starts.
 */
export function compileWasmForShortRun(): void {
  for (const flag of BASELINE_WASM_FLAGS) v8.setFlagsFromString(flag);
}
