import { type TextareaHTMLAttributes, useLayoutEffect, useRef } from 'react';

/** Browsers that size a text area to its content themselves; the others are sized here. */
const sizesItself = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');

/** A text area as tall as its text (up to a limit, then it scrolls), so that long values are read whole. */
export function GrowingTextArea({ className = '', value, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ref = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the value, which the effect reads from the element
  useLayoutEffect(() => {
    const element = ref.current;
    if (sizesItself || !element) return;
    element.style.height = 'auto';
    element.style.height = `${element.scrollHeight + element.offsetHeight - element.clientHeight}px`;
  }, [value]);
  return (
    <textarea
      ref={ref}
      rows={2}
      value={value}
      className={`field-sizing-content max-h-96 min-h-16 resize-y ${className}`}
      {...props}
    />
  );
}
