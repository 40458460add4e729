import { useState } from 'react';
import type { Tag } from '../api/tags';
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
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-4 py-2">
                {column}
              </th>
            ))}
            <th scope="col" className="px-4 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
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
        </tbody>
      </table>
    </div>
  );
}
