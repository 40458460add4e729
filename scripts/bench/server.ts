import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { DatabaseTarget } from '@docagent/core';
import type { FakeLlmServer } from '@docagent/fake-llm';

const BIN = fileURLToPath(new URL('../../apps/server/bin/docagent.js', import.meta.url));
const LOOP_PROBE = fileURLToPath(new URL('./loop-delay-probe.ts', import.meta.url));
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
/** Enough of a server's output to say why it failed. */
const KEPT_OUTPUT = 64 * 1024;

export interface BenchServer {
  url: string;
  /** CPU time (user + system) the process has used so far, in seconds. */
  cpuSeconds(): number;
  /** Resident memory now, in MB. */
  rssMb(): number;
  /** Starts a new measurement of the event loop's delays. */
  resetLoopDelay(): void;
  /** The worst and the 99th-percentile delay of the event loop since the last reset, in ms. */
  loopDelay(): Promise<{ maxMs: number; p99Ms: number }>;
  /** SIGTERM, and the exit (a profile is written then). */
  stop(): Promise<void>;
}

/**
 * The environment of a server whose every model is the fake provider: OpenAI and Anthropic
 * pointed at it, nothing of the caller's own provider settings, everything else as shipped
 * (LLM_MAX_RETRIES included: a benchmark measures the server as it runs).
 */
export function fakeProviderEnv(fake: FakeLlmServer, target: DatabaseTarget): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/_(API_KEY|BASE_URL|MODELS)$|^(DATABASE_URL|DATA_DIR|DOCAGENT_|LLM_|PORT$|LOG_LEVEL$)/.test(key)) env[key] = value;
  }
  Object.assign(env, {
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: fake.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-bench',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    // Servers sharing a PostgreSQL database must share the secret that seals organizations' keys.
    DOCAGENT_SECRET: 'docagent-benchmark-secret',
  });
  if (target.kind === 'postgres') env.DATABASE_URL = target.url;
  else if (target.kind === 'pglite') env.DATA_DIR = target.dataDir;
  else throw new Error('a server process cannot share an in-memory database');
  return env;
}

function procStat(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: the fields start after its closing parenthesis.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The server of another checkout of docagent (a baseline to compare with), found from its root. */
export function serverOfCheckout(root: string): string {
  const bin = join(resolvePath(root), 'apps/server/bin/docagent.js');
  if (!existsSync(bin)) throw new Error(`${root} is not a docagent checkout: it has no apps/server/bin/docagent.js.`);
  return bin;
}

/**
 * Starts `docagent serve` on a free port as a process of its own (so its CPU and memory are
 * its own), and resolves once it is ready. `profileDir` runs it under `--cpu-prof`; `bin` is the
 * server of another checkout (serverOfCheckout), this one's by default.
 */
export function startBenchServer(
  env: NodeJS.ProcessEnv,
  options: { profileDir?: string; bin?: string } = {},
): Promise<BenchServer> {
  const flags = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  const loopFile = join(mkdtempSync(join(tmpdir(), 'docagent-bench-loop-')), 'loop.json');
  const child: ChildProcess = spawn(process.execPath, [...flags, '--import', LOOP_PROBE, options.bin ?? BIN, 'serve'], {
    env: { ...env, PORT: '0', DOCAGENT_BENCH_LOOP_FILE: loopFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let url: string | undefined;
  let ready = false;
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer) => {
      out = (out + data).slice(-KEPT_OUTPUT);
      url ??= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (!ready && url && out.includes('docagent is ready')) {
        ready = true;
        resolve({
          url,
          cpuSeconds: () => {
            // utime and stime are the 12th and 13th fields after the command name.
            const fields = procStat(child.pid!);
            return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
          },
          rssMb: () => {
            const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            return Number(match?.[1] ?? 0) / 1024;
          },
          resetLoopDelay: () => child.kill('SIGUSR2'),
          loopDelay: async () => {
            // The probe writes every 200 ms; wait for a write that covers the end of the run.
            const asked = Date.now();
            for (;;) {
              const written = JSON.parse(readFileSync(loopFile, 'utf8')) as { maxMs: number; p99Ms: number; at: number };
              if (written.at > asked) return written;
              await sleep(50);
            }
          },
          stop: async () => {
            if (child.exitCode !== null) return;
            child.kill('SIGTERM');
            await once(child, 'exit');
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`docagent serve exited with ${code} before it was ready:\n${out}`)));
  });
}

/** Samples the servers' resident memory every `everyMs` until `stop`, which gives each one's peak in MB. */
export function watchPeakRss(servers: BenchServer[], everyMs = 50): { stop(): number[] } {
  const peaks = servers.map((s) => s.rssMb());
  const sample = () => {
    servers.forEach((s, i) => {
      peaks[i] = Math.max(peaks[i]!, s.rssMb());
    });
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}
