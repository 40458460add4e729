-- Turns, threads and run records name their subject (kind + id) instead of a document; every
-- existing one is about a document. Deleting a document now deletes its threads in the service.
ALTER TABLE "agent_threads" DROP CONSTRAINT "agent_threads_document_id_documents_id_fk";
--> statement-breakpoint
ALTER TABLE "agent_turns" DROP CONSTRAINT "agent_turns_document_id_documents_id_fk";
--> statement-breakpoint
DROP INDEX "agent_threads_doc_user_idx";--> statement-breakpoint
ALTER TABLE "agent_run_records" ADD COLUMN "subject_kind" text;--> statement-breakpoint
ALTER TABLE "agent_run_records" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "agent_threads" ADD COLUMN "subject_kind" text;--> statement-breakpoint
ALTER TABLE "agent_threads" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "agent_threads" ADD COLUMN "strategy" text DEFAULT 'react' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_turns" ADD COLUMN "subject_kind" text;--> statement-breakpoint
ALTER TABLE "agent_turns" ADD COLUMN "subject_id" text;--> statement-breakpoint
ALTER TABLE "agent_turns" ADD COLUMN "state_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
UPDATE "agent_run_records" SET "subject_kind" = 'document', "subject_id" = coalesce("document_id", '');--> statement-breakpoint
UPDATE "agent_threads" SET "subject_kind" = 'document', "subject_id" = "document_id";--> statement-breakpoint
UPDATE "agent_turns" SET "subject_kind" = 'document', "subject_id" = "document_id";--> statement-breakpoint
-- The document working state takes DocRouter's keys and shape: {schema_revid, prompt_revid, extraction: values}.
UPDATE "agent_threads" SET "working_state" = jsonb_strip_nulls(jsonb_build_object('schema_revid', "working_state"->'schemaRevid', 'prompt_revid', coalesce("working_state"->'promptRevid', "working_state"->'extraction'->'promptRevid'), 'extraction', "working_state"->'extraction'->'values'));--> statement-breakpoint
-- Turn state version 2: that working state; the audit lives only in the run record; a turn on a
-- thread keeps its messages on the thread (they were written there when it paused or ended).
UPDATE "agent_turns" SET "working_state" = jsonb_strip_nulls(jsonb_build_object('schema_revid', "working_state"->'schemaRevid', 'prompt_revid', coalesce("working_state"->'promptRevid', "working_state"->'extraction'->'promptRevid'), 'extraction', "working_state"->'extraction'->'values')), "progress" = "progress" - 'audit', "settings" = "settings" || '{"strategy":"react"}'::jsonb, "messages" = CASE WHEN "thread_id" IS NULL THEN "messages" ELSE '[]'::jsonb END, "state_version" = 2;--> statement-breakpoint
ALTER TABLE "agent_run_records" ALTER COLUMN "subject_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_run_records" ALTER COLUMN "subject_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_threads" ALTER COLUMN "subject_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_threads" ALTER COLUMN "subject_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_turns" ALTER COLUMN "subject_kind" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_turns" ALTER COLUMN "subject_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "agent_threads_subject_user_idx" ON "agent_threads" USING btree ("subject_kind","subject_id","user_id","updated_at");--> statement-breakpoint
ALTER TABLE "agent_run_records" DROP COLUMN "document_id";--> statement-breakpoint
ALTER TABLE "agent_threads" DROP COLUMN "document_id";--> statement-breakpoint
ALTER TABLE "agent_turns" DROP COLUMN "document_id";
