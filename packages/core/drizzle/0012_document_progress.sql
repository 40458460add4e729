-- How far a document's running stage has got ({stage, done, total}): pages with their text, or prompts
-- run. Null while no stage runs, so rows written before it need nothing.
ALTER TABLE "documents" ADD COLUMN "progress" jsonb;
