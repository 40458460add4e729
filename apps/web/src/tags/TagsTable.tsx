import { useState } from 'react';
import type { Tag } from '../api/tags';
import { DataTable } from '../components/DataTable';
import { EditTagRow } from './EditTagRow';
import { TagRow } from './TagRow';

const COLUMNS = ['Name', 'Description', 'Updated'];

interface TagsTableProps {
  orgId: string;
  tags: Tag[];
  onDelete: (tag: Tag) => void;
  /** The tag whose deletion is under way, if any. */
  deletingId: string | null;
}

/** The tags, one of which at a time can be edited in place. */
export function TagsTable({ orgId, tags, onDelete, deletingId }: TagsTableProps) {
  const [editingId, setEditingId] = useState<string | null>(null);
  return (
    <DataTable columns={COLUMNS}>
      {tags.map((tag) =>
        tag.id === editingId ? (
          <EditTagRow key={tag.id} orgId={orgId} tag={tag} columns={COLUMNS.length + 1} onDone={() => setEditingId(null)} />
        ) : (
          <TagRow
            key={tag.id}
            tag={tag}
            isDeleting={deletingId === tag.id}
            onEdit={(edited) => setEditingId(edited.id)}
            onDelete={onDelete}
          />
        ),
      )}
    </DataTable>
  );
}
