-- Whether an invitation lets the mentor read the trader's daily journal too (its notes, and each day's trades of the
-- granted accounts). Off unless the trader ticks it: invitations made before keep showing trades only.
ALTER TABLE "mentor_grants" ADD COLUMN "share_journal" boolean DEFAULT false NOT NULL;
