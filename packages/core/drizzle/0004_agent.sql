CREATE TABLE "agent_run_records" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"user_id" text,
	"document_id" text,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"tool_calls" jsonb NOT NULL,
	"usage" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"user_id" text,
	"document_id" text NOT NULL,
	"title" text NOT NULL,
	"messages" jsonb NOT NULL,
	"working_state" jsonb NOT NULL,
	"model" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_turn_events" (
	"turn_id" text NOT NULL,
	"seq" integer NOT NULL,
	"frame" jsonb NOT NULL,
	CONSTRAINT "agent_turn_events_turn_id_seq_pk" PRIMARY KEY("turn_id","seq")
);
--> statement-breakpoint
CREATE TABLE "agent_turns" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"user_id" text,
	"document_id" text NOT NULL,
	"thread_id" text,
	"status" text NOT NULL,
	"messages" jsonb NOT NULL,
	"pending" jsonb,
	"working_state" jsonb NOT NULL,
	"settings" jsonb NOT NULL,
	"progress" jsonb NOT NULL,
	"stop_requested" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_run_records" ADD CONSTRAINT "agent_run_records_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_threads" ADD CONSTRAINT "agent_threads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_threads" ADD CONSTRAINT "agent_threads_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_turn_events" ADD CONSTRAINT "agent_turn_events_turn_id_agent_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."agent_turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_turns" ADD CONSTRAINT "agent_turns_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_turns" ADD CONSTRAINT "agent_turns_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_run_records_org_created_idx" ON "agent_run_records" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_threads_doc_user_idx" ON "agent_threads" USING btree ("document_id","user_id","updated_at");--> statement-breakpoint
CREATE INDEX "agent_turns_expires_idx" ON "agent_turns" USING btree ("expires_at");