/** Said in place of results when the server has no model to run prompts with. */
export function NoModelNotice({ hint }: { hint: string }) {
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p className="font-medium">No model is configured: {hint}</p>
      <p className="mt-1 text-amber-800">The prompts run on this document once a model is available.</p>
    </div>
  );
}
