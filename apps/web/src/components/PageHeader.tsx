export function PageHeader({ title }: { title: string }) {
  return <h1 className="mb-6 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>;
}
