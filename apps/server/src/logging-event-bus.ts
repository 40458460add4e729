import { EventBus } from '@docagent/core';

interface ErrorLog {
  error(details: object, message: string): void;
}

/**
 * The process's event bus, logging a handler that fails. `log` may be a function for a logger
 * made after the bus (the server's, by the app the bus is passed to).
 */
export function loggingEventBus(log: ErrorLog | (() => ErrorLog | undefined)): EventBus {
  return new EventBus({
    onError: (error, event) =>
      (typeof log === 'function' ? log() : log)?.error({ err: error, event: event.type }, 'an event handler failed'),
  });
}
