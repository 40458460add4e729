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
  /** Each message's turn only looks and answers with a plan, which the person approves to carry out. */
  planFirst: boolean;
}

export const MAX_STEPS_LIMIT = 50;
const DEFAULT_MAX_STEPS = 10;

const defaults: ChatSettings = {
  approvalMode: 'ask',
  autoApprovedTools: [],
  model: null,
  maxSteps: DEFAULT_MAX_STEPS,
  strategy: 'react',
  planFirst: false,
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
    planFirst: settings.planFirst === true,
  };
}

/** The agent panel's settings, remembered per user (on the server and in this browser). */
export function useChatSettings() {
  const [settings, updateSettings] = usePreference('chat-settings', 'docagent.chat-settings.', parseChatSettings);

  const update = useCallback(
    (change: Partial<ChatSettings>) => updateSettings((current) => ({ ...current, ...change })),
    [updateSettings],
  );

  return { settings, update };
}

/** What a chat request says about approvals under the settings. */
export function approvalFields(settings: ChatSettings): {
  auto_approve: boolean;
  auto_approved_tools?: string[];
  plan_mode?: boolean;
} {
  const plan = settings.planFirst ? { plan_mode: true } : {};
  if (settings.approvalMode === 'all') return { auto_approve: true, ...plan };
  if (settings.approvalMode === 'tools') return { auto_approve: false, auto_approved_tools: settings.autoApprovedTools, ...plan };
  return { auto_approve: false, ...plan };
}
