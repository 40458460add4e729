import type { ChatItem } from './chatItems';
import { ChatMarkdown } from './Markdown';

type PhaseItem = Extract<ChatItem, { kind: 'phase' }>;

const labels = { reason: 'Reason', act: 'Act', observe: 'Observe', question: 'Question' } as const;

const dotClasses: Record<keyof typeof labels, string> = {
  reason: 'bg-violet-500',
  act: 'bg-sky-500',
  observe: 'bg-teal-500',
  question: 'bg-amber-500',
};

/** A phase's name on the step's timeline, with its dot on the line. */
export function PhaseLabel({ phase }: { phase: keyof typeof labels }) {
  return (
    <p className="relative text-[11px] font-semibold tracking-wide text-slate-500 uppercase">
      <span
        aria-hidden="true"
        className={`absolute top-1 -left-[1.0625rem] size-2 rounded-full ring-2 ring-white ${dotClasses[phase]}`}
      />
      {labels[phase]}
    </p>
  );
}

/** What the agent reasoned or observed in a step (its Markdown), or the question it asked and the answer. */
export function StepPhase({ item, orgId }: { item: PhaseItem; orgId: string }) {
  return (
    <div className="space-y-1">
      <PhaseLabel phase={item.phase} />
      <div className="text-sm text-slate-900">
        {item.phase === 'question' ? (
          <p className="whitespace-pre-wrap">{item.text}</p>
        ) : (
          <ChatMarkdown text={item.text} orgId={orgId} />
        )}
      </div>
      {item.answer !== undefined && (
        <p className="text-sm text-slate-700">
          <span className="font-medium">Your answer: </span>
          <span className="whitespace-pre-wrap">{item.answer}</span>
        </p>
      )}
    </div>
  );
}
