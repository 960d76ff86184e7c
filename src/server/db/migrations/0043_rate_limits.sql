-- Token buckets of the rate limits on public pages (shared links) and invitations, kept in the database so that every
-- server process on it spends one bucket per client. The key is a hash (of the limit's name and the address or user it
-- counts), so no address is stored; no trader's data is here. Only the server's owner connection uses the table: the
-- app role gets no grant.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"at_ms" bigint NOT NULL,
	"full_at_ms" bigint NOT NULL,
	"allowed" boolean NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_full_at_idx" ON "rate_limits" USING btree ("full_at_ms");
