import type { DocumentKind } from '../api/types';

export const kindLabels: Record<DocumentKind, string> = {
  pdf: 'PDF',
  image: 'Image',
  text: 'Text',
  markdown: 'Markdown',
  csv: 'CSV',
  xlsx: 'Excel workbook',
};
