-- Issue 27 point 4: a playbook's images (chart examples of its setup) are attachments owned by the playbook, like a
-- note's or a trade's; the reference carries the owner, and deleting the playbook deletes its rows.
ALTER TABLE "attachments" ADD COLUMN "playbook_id" uuid;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_playbook_owner_fk" FOREIGN KEY ("playbook_id","user_id") REFERENCES "public"."playbooks"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" DROP CONSTRAINT "attachments_one_owner_row";--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_one_owner_row" CHECK (num_nonnulls("attachments"."note_id", "attachments"."trade_id", "attachments"."playbook_id") = 1);--> statement-breakpoint
CREATE INDEX "attachments_user_playbook_idx" ON "attachments" USING btree ("user_id","playbook_id");
