import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

const maxRetries = 2;

// Client errors (bad input, missing permission, expired session) will not fix
// themselves, so only network failures and server errors are retried.
function isRetryable(error: Error): boolean {
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => failureCount < maxRetries && isRetryable(error),
    },
  },
});
