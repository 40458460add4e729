import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DomainError } from '../errors.ts';

/**
 * PGlite happily opens one folder from two processes and corrupts it, so every process
 * that opens the embedded database holds this lock file for as long as it has it open.
 */
export interface DataDirLock {
  /**
   * Records, for other processes, where the holder serves: the folder of the Unix socket of the
   * PostgreSQL protocol (admin commands use it), the HTTP address (`docagent mcp` bridges to it).
   */
  announce(where: Announced): void;
  release(): void;
}

type Announced = Partial<Pick<LockOwner, 'socket' | 'url'>>;

interface LockOwner {
  pid: number;
  host: string;
  holder: string;
  since: string;
  /** The folder of the Unix socket where the holder serves the database. */
  socket?: string;
  /** The HTTP address where the holder serves docagent, reachable from this machine. */
  url?: string;
}

const LOCK_FILE = 'docagent.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

/** What the live process on this machine that holds `dataDir` announced, if one does. */
export function runningHolder(dataDir: string): Announced | undefined {
  const owner = readOwner(join(dataDir, LOCK_FILE));
  if (!owner || owner.host !== hostname() || !isAlive(owner.pid)) return undefined;
  return { socket: owner.socket, url: owner.url };
}

export function acquireDataDirLock(dataDir: string, holder: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, host: hostname(), holder, since: new Date().toISOString() };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, JSON.stringify(owner));
      closeSync(fd);
      let announced: LockOwner = owner;
      return {
        announce(where) {
          announced = { ...announced, ...where };
          writeFileSync(path, JSON.stringify(announced));
        },
        release() {
          if (readOwner(path)?.pid === process.pid) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = readOwner(path);
      const stale = current !== undefined && current.host === owner.host && !isAlive(current.pid);
      if (!stale) {
        const who = current ? `a docagent ${current.holder} (pid ${current.pid}, since ${current.since})` : 'another process';
        throw new DomainError(
          'unavailable',
          `The embedded database in ${dataDir} is in use by ${who}. ` +
            'Stop that process first, or run against PostgreSQL by setting DATABASE_URL. ' +
            `If no docagent process is running, delete ${path}.`,
        );
      }
      unlinkSync(path);
    }
  }
  throw new DomainError('unavailable', `Could not lock ${path}; another process keeps taking it. Try again.`);
}
