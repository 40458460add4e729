import type { FakeReply } from './script.ts';

/**
 * A reply the fake provider holds until the test lets it go: to stop a turn, hit a time cap or
 * kill a process while a model call is under way.
 */
export interface HeldReply {
  /** Resolves once the provider has the request (and holds it). */
  arrived: Promise<void>;
  release(): void;
  /** For the fake's handler: holds, then answers with the reply. */
  answer(): Promise<FakeReply>;
}

export function heldReply(reply: FakeReply): HeldReply {
  let arrive: () => void = () => {};
  let release: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    arrived,
    release: () => release(),
    async answer() {
      arrive();
      await released;
      return reply;
    },
  };
}
