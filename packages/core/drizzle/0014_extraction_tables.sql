-- The built-in extractions dataset's tables are made from extraction results, not from a document:
-- source_version says which results a table was built from (<prompt id>:<digest>), so that it is built
-- again once they change. Null for tables ingested from a document, so rows written before need nothing.
ALTER TABLE "dataset_tables" ADD COLUMN "source_version" text;