import { spawn } from 'node:child_process';
import { TextExtractionError } from './types.ts';

const STDERR_TAIL = 500;

/**
 * Runs one poppler command (no shell), handing its stdout to `onOutput` as it arrives.
 * More than `maxOutputBytes` of output ends the process: a small hostile PDF can expand to
 * gigabytes of text. The signal (the document's time limit) kills it with SIGKILL, which a
 * stuck process cannot ignore. Resolves with the end of stderr (poppler reports repaired
 * damage there while still exiting 0).
 */
export function runPopplerCommand(
  command: string,
  args: string[],
  options: { signal: AbortSignal; maxOutputBytes: number; onOutput: (chunk: Buffer) => void },
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { signal: options.signal, killSignal: 'SIGKILL', stdio: ['ignore', 'pipe', 'pipe'] });
    let failed: unknown;
    const fail = (error: unknown) => {
      failed ??= error;
      child.kill('SIGKILL');
    };
    let outputBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (failed !== undefined) return;
      outputBytes += chunk.length;
      if (outputBytes > options.maxOutputBytes) {
        fail(
          new TextExtractionError(
            'too_large',
            `The PDF's text is larger than ${Math.round(options.maxOutputBytes / 1_000_000)} MB as ${command} prints it; split it into smaller files and upload those.`,
          ),
        );
        return;
      }
      try {
        options.onOutput(chunk);
      } catch (error) {
        fail(error);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    child.on('error', (error) => reject(options.signal.aborted ? options.signal.reason : error));
    child.on('close', (code) => {
      if (options.signal.aborted) reject(options.signal.reason);
      else if (failed !== undefined) reject(failed);
      else resolve({ code, stderr });
    });
  });
}
