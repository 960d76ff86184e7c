-- A trader's invitations to a mentor, and the mentor's comments. Both rows belong to the trader (user_id): the mentor
-- never reads them under their own id. The server checks a live grant on the owner connection, then reads as the
-- trader, narrowed to the granted accounts. The invite's secret is never stored: only its SHA-256 and that hash's
-- first 16 hex digits, which find the row before the whole hash is compared in constant time.
CREATE TABLE "mentor_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"mentor_user_id" text,
	"token_lookup" text NOT NULL,
	"token_hash" text NOT NULL,
	"account_ids" uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "mentor_grants_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "mentor_grants_hash_shape" CHECK ("mentor_grants"."token_hash" ~ '^[0-9a-f]{64}$' and "mentor_grants"."token_lookup" = left("mentor_grants"."token_hash", 16)),
	CONSTRAINT "mentor_grants_accounts" CHECK (cardinality("mentor_grants"."account_ids") > 0),
	CONSTRAINT "mentor_grants_accepted" CHECK (("mentor_grants"."mentor_user_id" is null) = ("mentor_grants"."accepted_at" is null)),
	CONSTRAINT "mentor_grants_not_self" CHECK ("mentor_grants"."mentor_user_id" is null or "mentor_grants"."mentor_user_id" <> "mentor_grants"."user_id")
);
--> statement-breakpoint
CREATE TABLE "mentor_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"grant_id" uuid NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"parent_id" uuid,
	"trade_id" uuid,
	"trade_date" date,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_at" timestamp with time zone,
	CONSTRAINT "mentor_comments_target" CHECK ("mentor_comments"."trade_id" is not null or "mentor_comments"."trade_date" is not null),
	CONSTRAINT "mentor_comments_body" CHECK (length("mentor_comments"."body") between 1 and 4000)
);
--> statement-breakpoint
ALTER TABLE "mentor_grants" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mentor_comments" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mentor_grants" ADD CONSTRAINT "mentor_grants_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_grants" ADD CONSTRAINT "mentor_grants_mentor_user_id_user_id_fk" FOREIGN KEY ("mentor_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_comments" ADD CONSTRAINT "mentor_comments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_comments" ADD CONSTRAINT "mentor_comments_grant_id_mentor_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."mentor_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_comments" ADD CONSTRAINT "mentor_comments_author_id_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentor_comments" ADD CONSTRAINT "mentor_comments_parent_id_mentor_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."mentor_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mentor_grants_lookup_idx" ON "mentor_grants" USING btree ("token_lookup");--> statement-breakpoint
CREATE INDEX "mentor_grants_user_created_idx" ON "mentor_grants" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "mentor_grants_mentor_idx" ON "mentor_grants" USING btree ("mentor_user_id");--> statement-breakpoint
CREATE INDEX "mentor_comments_user_created_idx" ON "mentor_comments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "mentor_comments_grant_idx" ON "mentor_comments" USING btree ("grant_id");--> statement-breakpoint
CREATE POLICY "mentor_grants_owner" ON "mentor_grants" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
CREATE POLICY "mentor_comments_owner" ON "mentor_comments" AS PERMISSIVE FOR ALL TO public USING (user_id = current_setting('app.user_id', true)) WITH CHECK (user_id = current_setting('app.user_id', true));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON mentor_grants TO edgebook_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON mentor_comments TO edgebook_app;
