-- Datasets of the data analyst (seed 004): a dataset is a named set of tables; each table is a CSV or TSV
-- document, or one sheet of an XLSX document, ingested into a Parquet file and a normalized CSV stored as
-- blobs. data_runs records every SQL, query-plan or Python execution over a dataset. New tables only:
-- nothing written before needs a change. (documents.kind gains 'xlsx'; the column has no check constraint.)
CREATE TABLE "datasets" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_tables" (
	"id" text PRIMARY KEY NOT NULL,
	"dataset_id" text NOT NULL,
	"table_name" text NOT NULL,
	"document_id" text,
	"sheet_name" text,
	"status" text NOT NULL,
	"error" text,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"row_count" bigint DEFAULT 0 NOT NULL,
	"skipped_rows" bigint DEFAULT 0 NOT NULL,
	"parquet_blob_id" text,
	"parquet_sha256" text,
	"csv_blob_id" text,
	"csv_sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"dataset_id" text NOT NULL,
	"question" text,
	"query_mode" text NOT NULL,
	"plan_json" jsonb,
	"compiled_sql" text,
	"python_code" text,
	"status" text NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_runs" ADD CONSTRAINT "data_runs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_runs" ADD CONSTRAINT "data_runs_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_tables" ADD CONSTRAINT "dataset_tables_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_tables" ADD CONSTRAINT "dataset_tables_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_tables" ADD CONSTRAINT "dataset_tables_parquet_blob_id_blobs_id_fk" FOREIGN KEY ("parquet_blob_id") REFERENCES "public"."blobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_tables" ADD CONSTRAINT "dataset_tables_csv_blob_id_blobs_id_fk" FOREIGN KEY ("csv_blob_id") REFERENCES "public"."blobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "datasets" ADD CONSTRAINT "datasets_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_runs_org_created_idx" ON "data_runs" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "data_runs_dataset_created_idx" ON "data_runs" USING btree ("dataset_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "dataset_tables_name_idx" ON "dataset_tables" USING btree ("dataset_id","table_name");--> statement-breakpoint
CREATE INDEX "dataset_tables_document_idx" ON "dataset_tables" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "datasets_org_name_idx" ON "datasets" USING btree ("org_id",lower("name"));--> statement-breakpoint
CREATE INDEX "datasets_org_created_idx" ON "datasets" USING btree ("org_id","created_at");