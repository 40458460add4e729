export function TagSwatch({ color }: { color: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-3 shrink-0 rounded-full ring-1 ring-slate-900/10"
      style={{ backgroundColor: color }}
    />
  );
}
