-- Issue 27, point 4: playbooks, the trader's named setups with a description, entry criteria and an ordered checklist
-- of rules. A trade takes at most one playbook; its rules are ticked per trade (trade_rule_checks). Reflect's "followed
-- the rules" (trade_reflections.followed_rules) stays the one answer a report reads: for a trade with a playbook it is
-- written from the ticks (every rule ticked: followed), and answers given before playbooks existed are kept as they are.
CREATE TABLE "playbooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"entry_criteria" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playbooks_id_user" UNIQUE("id","user_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "playbooks_user_name_idx" ON "playbooks" USING btree ("user_id",lower("name"));--> statement-breakpoint
ALTER TABLE "playbooks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "playbooks" ADD CONSTRAINT "playbooks_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "playbooks_owner" ON "playbooks" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON playbooks TO edgebook_app;
--> statement-breakpoint
CREATE TABLE "playbook_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"playbook_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "playbook_rules_id_user" UNIQUE("id","user_id")
);
--> statement-breakpoint
CREATE INDEX "playbook_rules_playbook_idx" ON "playbook_rules" USING btree ("user_id","playbook_id","position");--> statement-breakpoint
ALTER TABLE "playbook_rules" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "playbook_rules" ADD CONSTRAINT "playbook_rules_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playbook_rules" ADD CONSTRAINT "playbook_rules_playbook_owner_fk" FOREIGN KEY ("playbook_id","user_id") REFERENCES "public"."playbooks"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "playbook_rules_owner" ON "playbook_rules" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON playbook_rules TO edgebook_app;
--> statement-breakpoint
-- Deleting a playbook leaves its trades, without a playbook: SET NULL ("playbook_id") clears only that column (a plain
-- SET NULL would clear user_id too), as the notes layer does for a note's trade.
ALTER TABLE "trades" ADD COLUMN "playbook_id" uuid;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_playbook_owner_fk" FOREIGN KEY ("playbook_id","user_id") REFERENCES "public"."playbooks"("id","user_id") ON DELETE SET NULL ("playbook_id") ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trades_user_playbook_idx" ON "trades" USING btree ("user_id","playbook_id") WHERE "playbook_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "trade_rule_checks" (
	"user_id" text NOT NULL,
	"trade_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	CONSTRAINT "trade_rule_checks_user_id_trade_id_rule_id_pk" PRIMARY KEY("user_id","trade_id","rule_id")
);
--> statement-breakpoint
CREATE INDEX "trade_rule_checks_rule_idx" ON "trade_rule_checks" USING btree ("user_id","rule_id");--> statement-breakpoint
ALTER TABLE "trade_rule_checks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "trade_rule_checks" ADD CONSTRAINT "trade_rule_checks_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_rule_checks" ADD CONSTRAINT "trade_rule_checks_trade_owner_fk" FOREIGN KEY ("trade_id","user_id") REFERENCES "public"."trades"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_rule_checks" ADD CONSTRAINT "trade_rule_checks_rule_owner_fk" FOREIGN KEY ("rule_id","user_id") REFERENCES "public"."playbook_rules"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE POLICY "trade_rule_checks_owner" ON "trade_rule_checks" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON trade_rule_checks TO edgebook_app;
