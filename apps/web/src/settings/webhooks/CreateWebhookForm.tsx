import { type FormEvent, useState } from 'react';
import { useCreateWebhookMutation, WEBHOOK_EVENTS, type WebhookEventType } from '../../api/webhooks';
import { Button } from '../../components/Button';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TextField } from '../../components/TextField';
import type { ShownSecret } from './WebhooksSection';

/** The events as checkboxes, for the create form. */
function EventCheckboxes({
  selected,
  onChange,
  error,
}: {
  selected: WebhookEventType[];
  onChange: (events: WebhookEventType[]) => void;
  error?: string;
}) {
  const toggle = (type: WebhookEventType, on: boolean) =>
    onChange(
      on
        ? WEBHOOK_EVENTS.map((e) => e.type).filter((t) => t === type || selected.includes(t))
        : selected.filter((t) => t !== type),
    );
  return (
    <fieldset aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-800">Events</legend>
      <div className="mt-1 grid gap-x-6 gap-y-1 sm:grid-cols-2">
        {WEBHOOK_EVENTS.map((event) => (
          <label key={event.type} className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5"
              checked={selected.includes(event.type)}
              onChange={(e) => toggle(event.type, e.target.checked)}
            />
            <span>
              <code className="text-xs text-slate-900">{event.type}</code>
              <span className="block text-xs text-slate-500">{event.label}</span>
            </span>
          </label>
        ))}
      </div>
      {error && <p className="mt-1 text-xs text-red-700">{error}</p>}
    </fieldset>
  );
}

export function CreateWebhookForm({ orgId, onCreated }: { orgId: string; onCreated: (shown: ShownSecret) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['document.uploaded']);
  const [problems, setProblems] = useState<{ url?: string; events?: string }>({});
  const create = useCreateWebhookMutation(orgId);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = {
      url: /^https?:\/\/\S+$/i.test(url.trim())
        ? undefined
        : 'Enter the full address that receives the events, e.g. https://example.com/hooks.',
      events: events.length === 0 ? 'Choose at least one event.' : undefined,
    };
    setProblems(found);
    if (found.url || found.events) return;
    create.mutate(
      { url: url.trim(), events, description: description.trim(), enabled: true },
      {
        onSuccess: (created) => {
          setUrl('');
          setDescription('');
          onCreated({ title: `Endpoint ${created.url} added: its signing secret`, secret: created.secret });
        },
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded-md border border-slate-200 bg-slate-50 p-4"
      aria-label="New webhook endpoint"
    >
      <div className="grid gap-3 md:grid-cols-2">
        <TextField
          label="Endpoint URL"
          name="url"
          autoComplete="off"
          placeholder="https://example.com/hooks/docagent"
          error={problems.url}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <TextField
          label="Description (optional)"
          name="description"
          autoComplete="off"
          placeholder="e.g. Accounting system"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <EventCheckboxes selected={events} onChange={setEvents} error={problems.events} />
      {create.isError && <ErrorAlert title="Could not add the endpoint" error={create.error} />}
      <Button type="submit" disabled={create.isPending}>
        Add endpoint
      </Button>
    </form>
  );
}
