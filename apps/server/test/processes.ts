import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { BASELINE_WASM_FLAGS, type DatabaseTarget } from '@docagent/core';

/**
 * Node's arguments that run `docagent`, as a test starts it: a test's server lives seconds, so its
 * embedded database is not optimized (wasm-tiering.ts), as the test processes' own are not.
 */
export const DOCAGENT_ARGS = [...BASELINE_WASM_FLAGS, fileURLToPath(new URL('../bin/docagent.js', import.meta.url))];

/** The environment that points a docagent process at a test database. */
export function envFor(target: DatabaseTarget): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete base.DATABASE_URL;
  delete base.DATA_DIR;
  if (target.kind === 'postgres') return { ...base, DATABASE_URL: target.url };
  if (target.kind === 'pglite') return { ...base, DATA_DIR: target.dataDir };
  throw new Error('a child process cannot share an in-memory database');
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const child = spawn(process.execPath, [...DOCAGENT_ARGS, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `docagent serve` on a free port (or `docagent worker`, whose `url` is empty) and
 * resolves once it is ready, or rejects with its output.
 */
export function startServer(env: NodeJS.ProcessEnv, command: 'serve' | 'worker' = 'serve'): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...DOCAGENT_ARGS, command], {
    env: { ...env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      const ready =
        command === 'worker' ? out.includes('docagent worker is ready') : listening?.[1] && out.includes('docagent is ready');
      if (ready) {
        const url = listening?.[1] ?? '';
        resolve({
          child,
          url,
          output: () => out,
          stop: async () => {
            if (child.exitCode !== null) return child.exitCode;
            child.kill('SIGTERM');
            const [code] = (await once(child, 'exit')) as [number | null];
            return code;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`docagent ${command} exited with ${code} before it was ready:\n${out}`)));
  });
}
