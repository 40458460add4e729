import { useCallback, useState } from 'react';
import { useSession } from '../auth/session';

export type ApprovalMode = 'ask' | 'all' | 'tools';

export interface ChatSettings {
  approvalMode: ApprovalMode;
  /** With approvalMode 'tools': the read-write tools that run without asking. */
  autoApprovedTools: string[];
  /** Null: the organization's default chat model. */
  model: string | null;
  maxSteps: number;
}

export const MAX_STEPS_LIMIT = 50;
const DEFAULT_MAX_STEPS = 10;

const defaults: ChatSettings = { approvalMode: 'ask', autoApprovedTools: [], model: null, maxSteps: DEFAULT_MAX_STEPS };

export const clampSteps = (value: number) =>
  Number.isFinite(value) ? Math.min(MAX_STEPS_LIMIT, Math.max(1, Math.round(value))) : DEFAULT_MAX_STEPS;

function read(key: string): ChatSettings {
  try {
    const stored = JSON.parse(window.localStorage.getItem(key) ?? 'null') as Partial<ChatSettings> | null;
    if (!stored || typeof stored !== 'object') return defaults;
    return {
      approvalMode: stored.approvalMode === 'all' || stored.approvalMode === 'tools' ? stored.approvalMode : 'ask',
      autoApprovedTools: Array.isArray(stored.autoApprovedTools)
        ? stored.autoApprovedTools.filter((tool) => typeof tool === 'string')
        : [],
      model: typeof stored.model === 'string' ? stored.model : null,
      maxSteps: typeof stored.maxSteps === 'number' ? clampSteps(stored.maxSteps) : DEFAULT_MAX_STEPS,
    };
  } catch {
    return defaults;
  }
}

/** The agent panel's settings, remembered per user in this browser. */
export function useChatSettings() {
  const { user } = useSession();
  const key = `docagent.chat-settings.${user.id}`;
  const [settings, setSettings] = useState<ChatSettings>(() => read(key));

  const update = useCallback(
    (change: Partial<ChatSettings>) => {
      setSettings((current) => {
        const next = { ...current, ...change };
        try {
          window.localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // Storage full or disabled: the settings hold for this page only.
        }
        return next;
      });
    },
    [key],
  );

  /** Approves the tool from now on: the per-tool list gains it (and is used, unless everything is approved already). */
  const alwaysApprove = useCallback(
    (tool: string) => {
      setSettings((current) => {
        const next: ChatSettings = {
          ...current,
          approvalMode: current.approvalMode === 'all' ? 'all' : 'tools',
          autoApprovedTools: current.autoApprovedTools.includes(tool)
            ? current.autoApprovedTools
            : [...current.autoApprovedTools, tool],
        };
        try {
          window.localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // As above.
        }
        return next;
      });
    },
    [key],
  );

  return { settings, update, alwaysApprove };
}

/** What a chat request says about approvals under the settings. */
export function approvalFields(settings: ChatSettings): { auto_approve: boolean; auto_approved_tools?: string[] } {
  if (settings.approvalMode === 'all') return { auto_approve: true };
  if (settings.approvalMode === 'tools') return { auto_approve: false, auto_approved_tools: settings.autoApprovedTools };
  return { auto_approve: false };
}
