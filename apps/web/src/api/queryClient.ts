import { ApiError } from './client';
import { FreshAfterWriteQueryClient } from './freshAfterWriteQueryClient';

const maxRetries = 2;

// Client errors (bad input, missing permission, expired session) will not fix
// themselves, so only network failures and server errors are retried.
function isRetryable(error: Error): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

export const queryClient = new FreshAfterWriteQueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => failureCount < maxRetries && isRetryable(error),
    },
  },
});
