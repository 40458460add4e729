CREATE TABLE "extraction_outcomes" (
	"document_id" text NOT NULL,
	"prompt_id" text NOT NULL,
	"prompt_revid" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"error" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "extraction_outcomes_document_id_prompt_id_pk" PRIMARY KEY("document_id","prompt_id")
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "llm_waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "extraction_outcomes" ADD CONSTRAINT "extraction_outcomes_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_outcomes" ADD CONSTRAINT "extraction_outcomes_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "extraction_outcomes_prompt_idx" ON "extraction_outcomes" USING btree ("prompt_id");--> statement-breakpoint
CREATE INDEX "documents_llm_waiting_idx" ON "documents" USING btree ("org_id","llm_waiting_since") WHERE llm_waiting_since is not null;--> statement-breakpoint
-- A stored result was its prompt's success when it was stored: the newest per prompt is the latest outcome known.
INSERT INTO "extraction_outcomes" ("document_id", "prompt_id", "prompt_revid", "succeeded", "at")
SELECT DISTINCT ON ("document_id", "prompt_id") "document_id", "prompt_id", "prompt_revid", true, "updated_at"
FROM "extraction_results" ORDER BY "document_id", "prompt_id", "updated_at" DESC;--> statement-breakpoint
-- Extractions run by the agent or the API left their document at ocr_completed although it has results.
UPDATE "documents" SET "state" = 'llm_completed'
WHERE "state" = 'ocr_completed' AND EXISTS (SELECT 1 FROM "extraction_outcomes" o WHERE o."document_id" = "documents"."id");--> statement-breakpoint
-- What is still at ocr_completed had its prompts' job find no model: it waits for one. Milliseconds,
-- as JavaScript dates hold them, so that the value read back compares equal.
UPDATE "documents" SET "llm_waiting_since" = date_trunc('milliseconds', now()) WHERE "state" = 'ocr_completed';
