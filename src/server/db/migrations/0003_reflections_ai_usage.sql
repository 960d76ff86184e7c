ALTER TABLE "trades" ADD CONSTRAINT "trades_id_user" UNIQUE("id","user_id");--> statement-breakpoint
CREATE TABLE "ai_usage" (
	"user_id" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_count" integer NOT NULL,
	"day" date NOT NULL,
	"day_count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_usage" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "trade_reflections" (
	"trade_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"followed_rules" boolean,
	"tags" text[],
	"description" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_reflections_user_id_trade_id_pk" PRIMARY KEY("user_id","trade_id")
);
--> statement-breakpoint
ALTER TABLE "trade_reflections" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_reflections" ADD CONSTRAINT "trade_reflections_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_reflections" ADD CONSTRAINT "trade_reflections_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "ai_usage_owner" ON "ai_usage" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
CREATE POLICY "trade_reflections_owner" ON "trade_reflections" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ai_usage, trade_reflections TO edgebook_app;
