ALTER TABLE "agent_threads" ALTER COLUMN "messages" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "agent_threads" ALTER COLUMN "working_state" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "agent_turn_events" ALTER COLUMN "frame" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "agent_turns" ALTER COLUMN "messages" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "agent_turns" ALTER COLUMN "pending" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "agent_turns" ALTER COLUMN "working_state" SET DATA TYPE json;