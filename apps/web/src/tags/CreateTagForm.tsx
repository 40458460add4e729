import type { FormEvent } from 'react';
import { useCreateTagMutation } from '../api/tags';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { DEFAULT_TAG_COLOR } from './ColorField';
import { TagFields } from './TagFields';
import { useTagDraft } from './useTagDraft';

export function CreateTagForm({ orgId }: { orgId: string }) {
  const { draft, change, nameError, checked } = useTagDraft({ name: '', color: DEFAULT_TAG_COLOR, description: '' });
  const createTag = useCreateTagMutation(orgId);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const tag = checked();
    if (!tag) return;
    // The color is kept: tags made one after another often belong together.
    createTag.mutate(tag, { onSuccess: () => change({ name: '', description: '' }) });
  }

  return (
    <div className="space-y-4">
      <form aria-label="New tag" onSubmit={handleSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <TagFields
          draft={draft}
          onChange={change}
          nameError={nameError}
          labelPrefix="Tag"
          placeholders={{ name: 'e.g. Invoices', description: 'Optional' }}
        />
        <Button type="submit" className="mt-6 py-2" disabled={createTag.isPending}>
          Create tag
        </Button>
      </form>
      {createTag.isError && <ErrorAlert title="Could not create the tag" error={createTag.error} />}
    </div>
  );
}
