/** Messages between the server and its command host (command-host.ts), which starts commands for it. */

export type CommandHostRequest =
  /**
   * `path` is the server's PATH at the time of the call, `env` what else the command needs: the
   * host's environment is otherwise empty.
   */
  | {
      type: 'run';
      id: number;
      command: string;
      args: string[];
      input: Uint8Array;
      path: string;
      env: Record<string, string>;
    }
  | { type: 'kill'; id: number };

export type CommandHostMessage =
  | { type: 'ready' }
  | { type: 'output'; id: number; chunk: Uint8Array }
  /** The command ended (`stderr`: its last characters), or could not start (`error`). */
  | { type: 'exit'; id: number; code: number | null; stderr: string; error?: string };
