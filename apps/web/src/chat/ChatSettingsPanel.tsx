import { useId } from 'react';
import type { ChatStrategy } from '../api/chat';
import { Popover } from '../components/Popover';
import { SlidersIcon } from './ControlIcons';
import { type ApprovalMode, type ChatSettings, clampSteps, MAX_STEPS_LIMIT } from './useChatSettings';

interface ChatSettingsPanelProps {
  settings: ChatSettings;
  onChange: (change: Partial<ChatSettings>) => void;
  /** The tools that ask for approval. */
  readWriteTools: string[];
  disabled: boolean;
}

const modes: { value: ApprovalMode; label: string }[] = [
  { value: 'ask', label: 'Ask every time' },
  { value: 'all', label: 'Auto-approve all' },
  { value: 'tools', label: 'Auto-approve chosen tools' },
];

const strategies: { value: ChatStrategy; label: string; hint: string }[] = [
  { value: 'react', label: 'Tools', hint: 'The model calls tools as it goes.' },
  { value: 'roa', label: 'Reason–Act–Observe', hint: 'Each step reasons, acts with tools, then observes the results.' },
];

const selectClass =
  'rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-xs text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:bg-slate-50';

/**
 * The agent's settings: how it works, its step budget and how calls are approved (the model is
 * picked next to the input), in a compact control of the agent panel's one row of controls.
 */
export function ChatSettingsPanel({ settings, onChange, readWriteTools, disabled }: ChatSettingsPanelProps) {
  const stepsId = useId();
  const approvalId = useId();
  const strategyName = useId();

  function toggleTool(tool: string, on: boolean) {
    const rest = settings.autoApprovedTools.filter((name) => name !== tool);
    onChange({ autoApprovedTools: on ? [...rest, tool] : rest });
  }

  return (
    <Popover
      title="Agent settings"
      summary={
        <>
          <SlidersIcon />
          <span className="sr-only">Settings</span>
        </>
      }
      summaryTitle="Agent settings"
      summaryClassName="h-8 border border-slate-300 bg-white px-2 text-sm text-slate-700 hover:bg-slate-50"
      panelClassName="inset-x-0 top-full mt-1 max-h-[60vh] p-3 text-xs text-slate-700"
    >
      <div className="space-y-3">
        <fieldset className="flex flex-wrap items-center gap-2" disabled={disabled}>
          <legend className="float-left mr-2 font-medium">Strategy</legend>
          {/* A segmented switch: the radios are the buttons. */}
          <div className="inline-flex overflow-hidden rounded-md border border-slate-300">
            {strategies.map((strategy) => (
              <label
                key={strategy.value}
                title={strategy.hint}
                className="cursor-pointer px-2 py-1 not-first:border-l not-first:border-slate-300 has-checked:bg-slate-800 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-slate-500 has-disabled:cursor-not-allowed has-disabled:opacity-60"
              >
                <input
                  type="radio"
                  name={strategyName}
                  value={strategy.value}
                  checked={settings.strategy === strategy.value}
                  onChange={() => onChange({ strategy: strategy.value })}
                  className="sr-only"
                />
                {strategy.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={stepsId} className="font-medium">
            {settings.strategy === 'roa' ? 'Max iterations' : 'Max steps'}
          </label>
          <input
            id={stepsId}
            type="number"
            min={1}
            max={MAX_STEPS_LIMIT}
            value={settings.maxSteps}
            disabled={disabled}
            onChange={(event) => onChange({ maxSteps: clampSteps(event.target.valueAsNumber) })}
            className="w-16 rounded-md border border-slate-300 px-2 py-1 text-xs"
          />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={approvalId} className="font-medium">
            Approvals
          </label>
          <select
            id={approvalId}
            value={settings.approvalMode}
            disabled={disabled}
            onChange={(event) => onChange({ approvalMode: event.target.value as ApprovalMode })}
            className={selectClass}
          >
            {modes.map((mode) => (
              <option key={mode.value} value={mode.value}>
                {mode.label}
              </option>
            ))}
          </select>
        </div>
        <label
          className="flex items-start gap-1.5"
          title="Tools that change data are refused; the agent looks, then answers with a plan you approve"
        >
          <input
            type="checkbox"
            checked={settings.planFirst}
            disabled={disabled}
            onChange={(event) => onChange({ planFirst: event.target.checked })}
            className="mt-0.5 size-3.5 rounded border-slate-300"
          />
          <span>
            <span className="font-medium">Plan first</span>: the agent only looks and answers with a plan; nothing changes until
            you carry it out.
          </span>
        </label>
        {settings.approvalMode === 'tools' && (
          <fieldset className="grid grid-cols-2 gap-x-3 gap-y-1">
            <legend className="mb-1 font-medium">Tools approved without asking</legend>
            {readWriteTools.map((tool) => (
              <label key={tool} className="flex items-center gap-1.5 font-mono">
                <input
                  type="checkbox"
                  checked={settings.autoApprovedTools.includes(tool)}
                  disabled={disabled}
                  onChange={(event) => toggleTool(tool, event.target.checked)}
                  className="size-3.5 rounded border-slate-300"
                />
                {tool}
              </label>
            ))}
            {readWriteTools.length === 0 && <p className="col-span-2 text-slate-500">No tool list yet.</p>}
          </fieldset>
        )}
      </div>
    </Popover>
  );
}
