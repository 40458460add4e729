export function ModelLabel({ model }: { model: string | null }) {
  return model === null ? (
    <span className="text-slate-500">Organization default</span>
  ) : (
    <span className="font-mono text-xs">{model}</span>
  );
}
