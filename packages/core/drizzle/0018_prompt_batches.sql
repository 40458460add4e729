CREATE TABLE "prompt_batch_items" (
	"batch_id" text NOT NULL,
	"document_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompt_batch_items_batch_id_document_id_pk" PRIMARY KEY("batch_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "prompt_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"prompt_id" text NOT NULL,
	"prompt_revid" text NOT NULL,
	"selection" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "prompt_batch_items" ADD CONSTRAINT "prompt_batch_items_batch_id_prompt_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."prompt_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_batch_items" ADD CONSTRAINT "prompt_batch_items_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_batches" ADD CONSTRAINT "prompt_batches_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_batches" ADD CONSTRAINT "prompt_batches_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_batches" ADD CONSTRAINT "prompt_batches_prompt_revid_prompt_revisions_id_fk" FOREIGN KEY ("prompt_revid") REFERENCES "public"."prompt_revisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompt_batch_items_status_idx" ON "prompt_batch_items" USING btree ("batch_id","status");--> statement-breakpoint
CREATE INDEX "prompt_batches_org_created_idx" ON "prompt_batches" USING btree ("org_id","created_at");