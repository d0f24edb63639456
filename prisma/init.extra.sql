-- Full-text search over topic and content. Prisma cannot declare generated columns, so the schema
-- has the column as Unsupported("tsvector") and it is redefined here as generated from the message
-- (the GIN index on it is declared in the schema). No semicolons in these comments: the schema
-- engine splits scripts on them.
DROP INDEX "Message_searchVector_idx";
ALTER TABLE "Message" DROP COLUMN "searchVector";
ALTER TABLE "Message" ADD COLUMN "searchVector" tsvector
  GENERATED ALWAYS AS (to_tsvector('english', coalesce("topic", '') || ' ' || coalesce("content", ''))) STORED;
CREATE INDEX "Message_searchVector_idx" ON "Message" USING GIN ("searchVector");

-- Topic narrows compare case-insensitively (as Zulip does), and this expression index serves them.
CREATE INDEX "Message_channelId_lower_topic_id_idx" ON "Message" ("channelId", lower("topic"), "id");
