import { markdown } from '@codemirror/lang-markdown';
import CodeMirror, { EditorView, keymap } from '@uiw/react-codemirror';
import { useMemo, useRef } from 'react';

/** The app's palette through its CSS variables, so that the editor turns dark with the page. */
const paletteTheme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--color-white)', color: 'var(--color-slate-900)', fontSize: '0.875rem' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--color-slate-900)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--color-slate-900)' },
  '.cm-gutters': {
    backgroundColor: 'var(--color-slate-50)',
    color: 'var(--color-slate-500)',
    borderRight: '1px solid var(--color-slate-200)',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in oklab, var(--color-slate-100) 60%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--color-slate-100)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection': {
    backgroundColor: 'var(--color-sky-100)',
  },
  '&.cm-focused': { outline: 'none' },
});

interface MarkdownEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The accessible name of the text box. */
  label: string;
  /** Ctrl/Cmd-S. */
  onSave: () => void;
  readOnly?: boolean;
}

/** CodeMirror 6 with Markdown, filling its box, soft-wrapping long lines. */
export function MarkdownEditor({ value, onChange, label, onSave, readOnly }: MarkdownEditorProps) {
  const save = useRef(onSave);
  save.current = onSave;
  const extensions = useMemo(
    () => [
      markdown(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': label }),
      keymap.of([
        {
          key: 'Mod-s',
          preventDefault: true,
          run: () => {
            save.current();
            return true;
          },
        },
      ]),
    ],
    [label],
  );
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      extensions={extensions}
      theme={paletteTheme}
      height="100%"
      readOnly={readOnly}
      basicSetup={{ foldGutter: false, highlightActiveLineGutter: true }}
      className="h-full"
    />
  );
}
