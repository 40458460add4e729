import { commandHost } from './command-host.ts';
import { TextExtractionError } from './types.ts';

/**
 * Runs one poppler command (through the command host: no shell, no fork of the server), handing
 * its stdout to `onOutput` as it arrives. `input` (the PDF) is written to its stdin (poppler
 * reads a PDF named `-` from there), which spares a private copy on disk and its removal. More
 * than `maxOutputBytes` of output ends the process: a small hostile PDF can expand to gigabytes
 * of text. The signal (the document's time limit) kills it with SIGKILL, which a stuck process
 * cannot ignore. Resolves with the end of stderr (poppler reports repaired damage there while
 * still exiting 0).
 */
export async function runPopplerCommand(
  command: string,
  args: string[],
  options: { signal: AbortSignal; maxOutputBytes: number; onOutput: (chunk: Uint8Array) => void; input: Uint8Array },
): Promise<{ code: number | null; stderr: string }> {
  const stop = new AbortController();
  let failed: unknown;
  const fail = (error: unknown) => {
    failed ??= error;
    stop.abort();
  };
  let outputBytes = 0;
  const onOutput = (chunk: Uint8Array) => {
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
  };
  let exit: { code: number | null; stderr: string };
  try {
    exit = await commandHost.run(command, args, {
      input: options.input,
      signal: AbortSignal.any([options.signal, stop.signal]),
      onOutput,
    });
  } catch (error) {
    throw options.signal.aborted ? options.signal.reason : (failed ?? error);
  }
  if (options.signal.aborted) throw options.signal.reason;
  if (failed !== undefined) throw failed;
  return exit;
}
