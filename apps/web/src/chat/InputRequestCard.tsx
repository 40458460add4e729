import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../components/Button';

/**
 * The agent's question (request_input), highlighted with a soft pulse until it is answered, with a
 * box for the answer that takes the focus when the question comes.
 */
export function InputRequestCard({ question, onAnswer }: { question: string; onAnswer: (text: string) => void }) {
  const [answer, setAnswer] = useState('');
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    box.current?.focus();
  }, []);

  return (
    <form
      aria-label="Question from the agent"
      className="space-y-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 attention-pulse"
      onSubmit={(event) => {
        event.preventDefault();
        const text = answer.trim();
        if (text !== '') onAnswer(text);
      }}
    >
      <label htmlFor={id} className="block text-sm font-medium whitespace-pre-wrap text-sky-950">
        {question}
      </label>
      <textarea
        id={id}
        ref={box}
        value={answer}
        rows={2}
        onChange={(event) => setAnswer(event.target.value)}
        className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
      />
      <Button type="submit" disabled={answer.trim() === ''}>
        Send answer
      </Button>
    </form>
  );
}
