import { Link, type LinkProps } from 'react-router';

/** A link that looks like the primary button, for actions that open a page. */
export function ButtonLink({ className = '', ...props }: LinkProps) {
  return (
    <Link
      className={`inline-flex items-center justify-center rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium whitespace-nowrap text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${className}`}
      {...props}
    />
  );
}
