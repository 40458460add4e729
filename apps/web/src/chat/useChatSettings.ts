import { useCallback } from 'react';
import type { ChatStrategy } from '../api/chat';
import { usePreference } from '../api/preferences';

export type ApprovalMode = 'ask' | 'all' | 'tools';

export interface ChatSettings {
  approvalMode: ApprovalMode;
  /** With approvalMode 'tools': the read-write tools that run without asking. */
  autoApprovedTools: string[];
  /** Null: the organization's default chat model. */
  model: string | null;
  /** Steps of a turn at most; a Reason–Act–Observe step (an iteration) is reason, act and observe. */
  maxSteps: number;
  strategy: ChatStrategy;
}

export const MAX_STEPS_LIMIT = 50;
const DEFAULT_MAX_STEPS = 10;

const defaults: ChatSettings = {
  approvalMode: 'ask',
  autoApprovedTools: [],
  model: null,
  maxSteps: DEFAULT_MAX_STEPS,
  strategy: 'react',
};

export const clampSteps = (value: number) =>
  Number.isFinite(value) ? Math.min(MAX_STEPS_LIMIT, Math.max(1, Math.round(value))) : DEFAULT_MAX_STEPS;

/** Whatever is stored, as settings: the defaults stand in for what is missing or wrong. */
function parseChatSettings(stored: unknown): ChatSettings {
  if (typeof stored !== 'object' || stored === null) return defaults;
  const settings = stored as Partial<Record<keyof ChatSettings, unknown>>;
  return {
    approvalMode: settings.approvalMode === 'all' || settings.approvalMode === 'tools' ? settings.approvalMode : 'ask',
    autoApprovedTools: Array.isArray(settings.autoApprovedTools)
      ? settings.autoApprovedTools.filter((tool): tool is string => typeof tool === 'string')
      : [],
    model: typeof settings.model === 'string' ? settings.model : null,
    maxSteps: typeof settings.maxSteps === 'number' ? clampSteps(settings.maxSteps) : DEFAULT_MAX_STEPS,
    strategy: settings.strategy === 'roa' ? 'roa' : 'react',
  };
}

/** The agent panel's settings, remembered per user (on the server and in this browser). */
export function useChatSettings() {
  const [settings, updateSettings] = usePreference('chat-settings', 'docagent.chat-settings.', parseChatSettings);

  const update = useCallback(
    (change: Partial<ChatSettings>) => updateSettings((current) => ({ ...current, ...change })),
    [updateSettings],
  );

  /** Approves the tool from now on: the per-tool list gains it (and is used, unless everything is approved already). */
  const alwaysApprove = useCallback(
    (tool: string) =>
      updateSettings((current) => ({
        ...current,
        approvalMode: current.approvalMode === 'all' ? 'all' : 'tools',
        autoApprovedTools: current.autoApprovedTools.includes(tool)
          ? current.autoApprovedTools
          : [...current.autoApprovedTools, tool],
      })),
    [updateSettings],
  );

  return { settings, update, alwaysApprove };
}

/** What a chat request says about approvals under the settings. */
export function approvalFields(settings: ChatSettings): { auto_approve: boolean; auto_approved_tools?: string[] } {
  if (settings.approvalMode === 'all') return { auto_approve: true };
  if (settings.approvalMode === 'tools') return { auto_approve: false, auto_approved_tools: settings.autoApprovedTools };
  return { auto_approve: false };
}
