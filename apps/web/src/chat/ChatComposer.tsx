import type { ToolCallInfo } from '../api/chatStream';
import { Button } from '../components/Button';
import { MentionInput } from './MentionInput';
import { ModelPicker } from './ModelPicker';
import type { MentionChoice } from './mentions';
import { StepCounter } from './StepCounter';
import type { ChatSettings } from './useChatSettings';
import type { StepProgress } from './useChatTurns';

/** What the paused turn waits for, for the message box to say while it cannot send. */
export interface Waiting {
  pending: ToolCallInfo[];
  question: boolean;
}

/** Says what the agent waits for and where to answer it: the approval or the question pinned just above. */
function placeholderOf(waiting: Waiting | null): string {
  if (waiting === null) return 'Ask the agent… (@ mentions, Enter sends, Shift+Enter for a new line)';
  if (waiting.question) return 'The agent asked you a question: answer it just above to go on.';
  const [first] = waiting.pending;
  if (waiting.pending.length === 1 && first) return `${first.name} waits for your approval: Approve or Reject it just above.`;
  return `${waiting.pending.length} actions wait for your approval: decide them just above.`;
}

function approvalText(settings: ChatSettings): string {
  if (settings.planFirst) return 'Plans first: changes nothing until you carry out its plan';
  if (settings.approvalMode === 'all') return 'Auto-approves every action';
  if (settings.approvalMode === 'tools') return `Auto-approves ${settings.autoApprovedTools.length} tools`;
  return 'Asks before every change';
}

interface ChatComposerProps {
  orgId: string;
  message: string;
  onMessage: (message: string) => void;
  chosen: MentionChoice[];
  onChoose: (choice: MentionChoice) => void;
  onSend: () => void;
  /** The paused turn's wait; null when the person can write. */
  waiting: Waiting | null;
  canSend: boolean;
  models: string[];
  model: string | undefined;
  onModel: (model: string) => void;
  settings: ChatSettings;
  running: boolean;
  stopping: boolean;
  progress: StepProgress | null;
  onStop: () => void;
}

/** The message box, with the model, how calls are approved, the running turn's step and Stop, and Send. */
export function ChatComposer(props: ChatComposerProps) {
  const { running, stopping, progress } = props;
  return (
    <form
      aria-label="Message the agent"
      className="space-y-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSend();
      }}
    >
      <MentionInput
        orgId={props.orgId}
        value={props.message}
        onChange={props.onMessage}
        chosen={props.chosen}
        onChoose={props.onChoose}
        onSubmit={props.onSend}
        onEscape={() => {
          if (running && !stopping) props.onStop();
        }}
        placeholder={placeholderOf(props.waiting)}
      />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <ModelPicker models={props.models} value={props.model} disabled={running} onChange={props.onModel} />
        <span className="text-xs text-slate-500">{approvalText(props.settings)}</span>
        <div className="ml-auto flex items-center gap-2">
          {running && progress && <StepCounter progress={progress} />}
          {running && (
            <Button variant="danger" disabled={stopping} onClick={props.onStop}>
              {stopping ? 'Stopping…' : 'Stop'}
            </Button>
          )}
          <Button type="submit" disabled={!props.canSend} aria-busy={running || undefined}>
            {running ? 'Working…' : 'Send'}
          </Button>
        </div>
      </div>
    </form>
  );
}
