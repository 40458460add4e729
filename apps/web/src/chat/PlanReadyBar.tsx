import { Button } from '../components/Button';

/** What the person says to approve the plan: the next turn carries it out under the usual approvals. */
export const CARRY_OUT_PLAN = 'The plan is approved: carry it out.';

/** After a turn that planned first: its answer is the plan, and nothing was changed yet. */
export function PlanReadyBar({ onCarryOut }: { onCarryOut: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-xs"
    >
      <span className="text-indigo-950">The agent's plan is above; nothing was changed.</span>
      <Button className="px-2.5 py-1" onClick={onCarryOut}>
        Carry out the plan
      </Button>
      <span className="text-indigo-900">or write what to change in it.</span>
    </div>
  );
}
