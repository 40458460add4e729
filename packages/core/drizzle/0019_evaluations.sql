ALTER TABLE "prompt_batch_items" ADD COLUMN "answer" json;--> statement-breakpoint
ALTER TABLE "prompt_batch_items" ADD COLUMN "expected" json;--> statement-breakpoint
ALTER TABLE "prompt_batches" ADD COLUMN "kind" text DEFAULT 'run' NOT NULL;