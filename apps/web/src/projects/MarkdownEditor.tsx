import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import CodeMirror, { EditorView, keymap } from '@uiw/react-codemirror';
import { useCallback, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

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

/**
 * Markdown's colours from the palette too: CodeMirror's default highlighting has fixed dark colours
 * (a dark grey for the # and - marks, a dark blue for links) that vanish on the dark theme.
 */
const markdownHighlight = HighlightStyle.define([
  { tag: tags.heading, fontWeight: '700', color: 'var(--color-slate-900)' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], color: 'var(--color-slate-500)' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--color-sky-700)' },
  { tag: tags.link, textDecoration: 'underline' },
  { tag: tags.monospace, color: 'var(--color-emerald-700)' },
  { tag: tags.quote, color: 'var(--color-slate-600)', fontStyle: 'italic' },
]);

interface MarkdownEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The accessible name of the text box. */
  label: string;
  /** Ctrl/Cmd-S. */
  onSave: () => void;
  readOnly?: boolean;
}

/**
 * CodeMirror 6 with Markdown, filling its box, soft-wrapping long lines.
 *
 * It lives in a shadow root of its own: CodeMirror writes its styles into a `<style>` element,
 * which the app's Content-Security-Policy (no inline styles) refuses, leaving an editor without
 * its layout; in a shadow root they go into a constructed style sheet instead, which the policy
 * allows. The palette's CSS variables reach into the shadow root, so the editor still turns dark.
 */
export function MarkdownEditor({ value, onChange, label, onSave, readOnly }: MarkdownEditorProps) {
  const save = useRef(onSave);
  save.current = onSave;
  const [shadow, setShadow] = useState<ShadowRoot | null>(null);
  const host = useCallback((element: HTMLDivElement | null) => {
    if (element) setShadow(element.shadowRoot ?? element.attachShadow({ mode: 'open' }));
  }, []);
  const extensions = useMemo(
    () => [
      markdown(),
      syntaxHighlighting(markdownHighlight),
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
    <div ref={host} className="h-full">
      {shadow &&
        createPortal(
          <CodeMirror
            value={value}
            onChange={onChange}
            extensions={extensions}
            theme={paletteTheme}
            height="100%"
            readOnly={readOnly}
            root={shadow}
            basicSetup={{ foldGutter: false, highlightActiveLineGutter: true, syntaxHighlighting: false }}
            // The app's classes do not reach into the shadow root; a style set through the DOM is allowed.
            style={{ height: '100%' }}
          />,
          shadow,
        )}
    </div>
  );
}
