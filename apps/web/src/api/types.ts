export interface User {
  id: string;
  email: string;
  name: string;
  must_change_password: boolean;
}

export interface Organization {
  id: string;
  name: string;
  role: string;
}

export interface Session {
  user: User;
  organizations: Organization[];
  csrf_token: string;
}

export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  created_by: { id: string; email: string } | null;
}

export interface CreatedApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  token: string;
}

export type DocumentState =
  | 'uploaded'
  | 'ocr_processing'
  | 'ocr_completed'
  | 'ocr_failed'
  | 'llm_processing'
  | 'llm_completed'
  | 'llm_failed';

export type DocumentKind = 'pdf' | 'image' | 'text' | 'markdown' | 'csv' | 'xlsx';

/** Where the agent's auto-create proposal of a schema and a prompt stands (seed 000 section 4.3). */
export const AUTO_CREATE_STATUSES = ['pending', 'running', 'proposed', 'failed', 'accepted', 'rejected'] as const;
export type AutoCreateStatus = (typeof AUTO_CREATE_STATUSES)[number];

/** A status named in a link or a form; anything else (an old or hand-written link) is none. */
export function parseAutoCreateStatus(value: string | null): AutoCreateStatus | null {
  return AUTO_CREATE_STATUSES.find((status) => status === value) ?? null;
}

/** Auto-create's fields of a document: each only when set, so a document without auto-create has none. */
export interface AutoCreateFields {
  auto_create?: true;
  auto_create_status?: AutoCreateStatus;
  auto_create_schema_revid?: string;
  auto_create_prompt_revid?: string;
  auto_create_error?: string;
}

/** How far a running stage has got: pages with their text (`text`), or prompts run (`extraction`). */
export interface DocumentProgress {
  stage: 'text' | 'extraction';
  done: number;
  total: number;
}

export interface DocumentSummary extends AutoCreateFields {
  id: string;
  document_name: string;
  upload_date: string;
  uploaded_by: string;
  state: DocumentState;
  state_error: string | null;
  tag_ids: string[];
  /** The MIME type sniffed from the file's bytes. */
  type: string;
  kind: DocumentKind;
  metadata: Record<string, string>;
  size_bytes: number;
  /** Null until text extraction has completed. */
  page_count: number | null;
  /** Set while the text is extracted or the prompts run; null otherwise. */
  progress: DocumentProgress | null;
}

export interface DocumentList {
  documents: DocumentSummary[];
  total_count: number;
  skip: number;
}

export interface UploadedDocument extends AutoCreateFields {
  document_id: string;
  document_name: string;
  state: DocumentState;
}

export interface PageText {
  /** 1-based. */
  page: number;
  /** Which engine produced the text, e.g. pdf_text or tesseract_cli. */
  engine: string;
  text: string;
}

export interface DocumentText {
  document_id: string;
  n_pages: number;
  ocr_date: string | null;
  ocr_type: string | null;
  pages: PageText[];
}
