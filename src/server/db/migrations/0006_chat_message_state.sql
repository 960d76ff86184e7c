ALTER TABLE "chat_messages" ADD COLUMN "status" text DEFAULT 'complete' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "mode" text DEFAULT 'chat' NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "reasoning" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "meta" jsonb;