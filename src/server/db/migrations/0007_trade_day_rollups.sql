CREATE TABLE "trade_day_rollups" (
	"user_id" text NOT NULL,
	"scope" text NOT NULL,
	"day" date NOT NULL,
	"trades" integer NOT NULL,
	"wins" integer NOT NULL,
	"losses" integer NOT NULL,
	"break_evens" integer NOT NULL,
	"pnl" numeric(20, 2) NOT NULL,
	"gross_profit" numeric(20, 2) NOT NULL,
	"gross_loss" numeric(20, 2) NOT NULL,
	"head_result" text,
	"head_run" integer NOT NULL,
	"tail_result" text,
	"tail_run" integer NOT NULL,
	"max_win_run" integer NOT NULL,
	"max_loss_run" integer NOT NULL,
	CONSTRAINT "trade_day_rollups_user_id_scope_day_pk" PRIMARY KEY("user_id","scope","day")
);
--> statement-breakpoint
ALTER TABLE "trade_day_rollups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "trade_day_rollups" ADD CONSTRAINT "trade_day_rollups_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "trade_day_rollups_owner" ON "trade_day_rollups" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));