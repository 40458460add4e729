import { useCallback } from 'react';
import { useCreateRuleMutation } from '../api/permissionRules';
import type { AlwaysApprove } from './usePauseDecisions';

/** "Always approve" on a call writes a rule of the person's: for every call of its tool, or for calls like it. */
export function useAlwaysApprove(orgId: string): AlwaysApprove {
  const { mutateAsync } = useCreateRuleMutation(orgId);
  return useCallback<AlwaysApprove>(
    (call, like) =>
      mutateAsync({
        tool: call.name,
        effect: 'allow',
        scope: 'user',
        ...(like === 'like_this' ? { like_call: call.arguments ?? {} } : { pattern: {} }),
        note:
          like === 'like_this' ? 'Approved in the chat: calls like this one' : 'Approved in the chat: every call of this tool',
      }),
    [mutateAsync],
  );
}
