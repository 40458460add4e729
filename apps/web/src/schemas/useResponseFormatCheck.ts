import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { InputProblem } from '../api/client';
import { checkResponseFormat } from '../api/schemas';
import { type JsonSyntaxError, parseJson } from '../lib/parseJson';
import { useDebouncedValue } from '../lib/useDebouncedValue';

/** How long typing must pause before the server checks the draft. */
const CHECK_DELAY_MS = 400;

export type ResponseFormatCheck =
  | { status: 'syntax-error'; error: JsonSyntaxError }
  | { status: 'checking' }
  | { status: 'check-failed'; error: unknown; retry: () => void }
  | { status: 'invalid'; problems: InputProblem[] }
  | { status: 'valid'; responseFormat: unknown };

/**
 * What is wrong with the JSON being typed: syntax errors at once, then, once typing pauses, every
 * problem the server finds in the response_format. Only a draft the server passed as it stands is valid.
 */
export function useResponseFormatCheck(orgId: string, text: string): ResponseFormatCheck {
  const parsed = useMemo(() => parseJson(text), [text]);
  const checkedText = useDebouncedValue(text, CHECK_DELAY_MS);
  const isSettled = checkedText === text;
  const check = useQuery({
    queryKey: ['orgs', orgId, 'schema-check', checkedText],
    queryFn: () => checkResponseFormat(orgId, JSON.parse(checkedText)),
    enabled: isSettled && parsed.ok,
    // A check says the same as long as the text does.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

  if (!parsed.ok) {
    return { status: 'syntax-error', error: parsed.error };
  }
  if (!isSettled || check.isPending) {
    return { status: 'checking' };
  }
  if (check.isError) {
    return { status: 'check-failed', error: check.error, retry: () => void check.refetch() };
  }
  return check.data.valid
    ? { status: 'valid', responseFormat: parsed.value }
    : { status: 'invalid', problems: check.data.errors };
}
