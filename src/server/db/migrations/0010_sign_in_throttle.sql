CREATE TABLE "sign_in_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" timestamp with time zone,
	"last_attempt" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
