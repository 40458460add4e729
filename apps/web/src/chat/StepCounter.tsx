import type { StepProgress } from './useChatTurns';

/** Which step of its budget the running turn is at. */
export function StepCounter({ progress }: { progress: StepProgress }) {
  return (
    <span role="status" className="text-xs text-slate-600 tabular-nums">
      step {Math.min(progress.step, progress.maxSteps)} of {progress.maxSteps}
    </span>
  );
}
