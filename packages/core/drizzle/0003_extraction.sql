CREATE TABLE "extraction_results" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"document_id" text NOT NULL,
	"prompt_id" text NOT NULL,
	"prompt_revid" text NOT NULL,
	"prompt_version" integer NOT NULL,
	"model" text NOT NULL,
	"llm_result" json NOT NULL,
	"updated_llm_result" json NOT NULL,
	"is_edited" boolean DEFAULT false NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_llm_providers" (
	"org_id" text NOT NULL,
	"provider" text NOT NULL,
	"api_key_encrypted" text,
	"api_key_preview" text,
	"base_url" text,
	"models" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "org_llm_providers_org_id_provider_pk" PRIMARY KEY("org_id","provider")
);
--> statement-breakpoint
CREATE TABLE "org_llm_settings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"default_model" text,
	"enabled_models" text[],
	"chat_models" text[],
	"monthly_limit_usd" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_ledger" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"model" text NOT NULL,
	"operation" text NOT NULL,
	"document_id" text,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"cached_tokens" integer NOT NULL,
	"reasoning_tokens" integer NOT NULL,
	"cost_usd" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schema_revisions" ALTER COLUMN "response_format" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "extraction_results" ADD CONSTRAINT "extraction_results_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_results" ADD CONSTRAINT "extraction_results_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_results" ADD CONSTRAINT "extraction_results_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_results" ADD CONSTRAINT "extraction_results_prompt_revid_prompt_revisions_id_fk" FOREIGN KEY ("prompt_revid") REFERENCES "public"."prompt_revisions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_llm_providers" ADD CONSTRAINT "org_llm_providers_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_llm_settings" ADD CONSTRAINT "org_llm_settings_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_ledger" ADD CONSTRAINT "usage_ledger_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "extraction_results_doc_rev_idx" ON "extraction_results" USING btree ("document_id","prompt_revid");--> statement-breakpoint
CREATE INDEX "extraction_results_prompt_idx" ON "extraction_results" USING btree ("prompt_id");--> statement-breakpoint
CREATE INDEX "usage_ledger_org_created_idx" ON "usage_ledger" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "prompts_org_default_idx" ON "prompts" USING btree ("org_id") WHERE is_default;