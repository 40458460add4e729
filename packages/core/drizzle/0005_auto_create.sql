ALTER TABLE "documents" ADD COLUMN "auto_create" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_status" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_schema_revid" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_prompt_revid" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_error" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_log" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "auto_create_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "org_llm_settings" ADD COLUMN "auto_create_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "org_llm_settings" ADD COLUMN "auto_create_model" text;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "auto_create_pending_document_id" text;--> statement-breakpoint
CREATE INDEX "documents_org_auto_create_idx" ON "documents" USING btree ("org_id","auto_create_status");