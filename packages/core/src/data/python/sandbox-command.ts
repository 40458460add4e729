/**
 * The bubblewrap command line of the Python sandbox. Everything the program may see is listed
 * here: the system's /usr (read-only), its own /proc, /dev and a small /tmp, the wrapper script
 * and the tables. No network (its own empty network namespace), no host environment, no
 * further user namespaces (so it cannot remount what it was given).
 */

/** Debian's python3, which python3-pandas is built for: a pyenv or venv python3 on PATH lacks pandas. */
export const SANDBOX_PYTHON = '/usr/bin/python3';
/** Where the wrapper script is inside; it skips its own frames in tracebacks by this path. */
const WRAPPER_INSIDE = '/sandbox/main.py';

/** All Python needs: numpy's OpenBLAS would otherwise start a thread per core, each counted as a process. */
const SANDBOX_ENV: Array<[string, string]> = [
  ['PATH', '/usr/bin:/bin'],
  ['HOME', '/tmp'],
  ['TMPDIR', '/tmp'],
  ['LANG', 'C.UTF-8'],
  ['OPENBLAS_NUM_THREADS', '1'],
  ['OMP_NUM_THREADS', '1'],
  ['MPLCONFIGDIR', '/tmp'],
];

export interface SandboxFiles {
  /** Open descriptor (in bwrap's numbering) of sandbox_main.py. */
  wrapperFd: number;
  /** Open descriptors of each table's CSV, shown as /data/<name>.csv. */
  tables: Array<{ name: string; fd: number }>;
  /** Size of the private /tmp. */
  tmpBytes: number;
}

/**
 * Files come in as open descriptors that bwrap copies into the sandbox (`--ro-bind-data`)
 * rather than as host paths to bind: bwrap runs as an unprivileged user (see PythonSandbox),
 * which cannot see into a data directory only the server's user may read, while the server
 * opened them before starting it. The copy costs the table's size in memory for the run, which
 * pandas needs several times over anyway; the host paths stay unknown inside.
 */
export function sandboxArguments(files: SandboxFiles): string[] {
  const readOnlyCopy = (fd: number, inside: string) => ['--perms', '0444', '--ro-bind-data', String(fd), inside];
  return [
    '--unshare-all',
    // --unshare-all only tries a user namespace; --disable-userns needs one for sure.
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    ...['/usr', '/lib', '/bin', '/etc/alternatives'].flatMap((dir) => ['--ro-bind', dir, dir]),
    ...['--ro-bind-try', '/lib64', '/lib64'],
    ...['--proc', '/proc', '--dev', '/dev'],
    ...['--size', String(files.tmpBytes), '--tmpfs', '/tmp'],
    ...readOnlyCopy(files.wrapperFd, WRAPPER_INSIDE),
    ...files.tables.flatMap((table) => readOnlyCopy(table.fd, `/data/${table.name}.csv`)),
    // bwrap builds the root and /dev on writable tmpfs without a size: writes there would take
    // the host's memory. Only /tmp, which has a size, stays writable.
    ...['--remount-ro', '/dev', '--remount-ro', '/'],
    ...['--chdir', '/tmp', '--clearenv'],
    ...SANDBOX_ENV.flatMap(([name, value]) => ['--setenv', name, value]),
    '--',
    SANDBOX_PYTHON,
    // Isolated mode: no PYTHON* variables, no user site-packages, no script directory on sys.path.
    '-I',
    '-B',
    WRAPPER_INSIDE,
  ];
}
