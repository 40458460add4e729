import { nowMs } from './measure.ts';

export interface Frame {
  id: number;
  data: { type: string } & Record<string, unknown>;
  /** When the bytes ending this frame arrived (epoch ms, as the fake provider's `sent` stamps). */
  at: number;
}

/** The frames of a docagent SSE response, each stamped with its arrival. */
export async function* sseFrames(response: Response): AsyncGenerator<Frame> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of response.body) {
    const at = nowMs();
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data === undefined) continue;
      yield { id: Number(/^id: (\d+)$/m.exec(block)?.[1]), data: JSON.parse(data), at };
    }
  }
}
