import { useCallback } from 'react';
import { likeThisPattern, useCreateRuleMutation } from '../api/permissionRules';
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
        pattern: like === 'like_this' ? likeThisPattern(call.arguments) : {},
        note:
          like === 'like_this' ? 'Approved in the chat: calls like this one' : 'Approved in the chat: every call of this tool',
      }),
    [mutateAsync],
  );
}
