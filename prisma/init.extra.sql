-- Full-text search over topic and content. Prisma cannot declare triggers, so the column is
-- `Unsupported("tsvector")` in the schema and filled here; the GIN index is in the schema.
CREATE FUNCTION "message_search_vector_update"() RETURNS trigger AS $$
BEGIN
  NEW."searchVector" := to_tsvector('english', coalesce(NEW."topic", '') || ' ' || coalesce(NEW."content", ''));
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "message_search_vector_trigger"
  BEFORE INSERT OR UPDATE OF "topic", "content" ON "Message"
  FOR EACH ROW EXECUTE FUNCTION "message_search_vector_update"();

-- Topic narrows compare case-insensitively (as Zulip does); this expression index serves them.
CREATE INDEX "Message_channelId_lower_topic_id_idx" ON "Message" ("channelId", lower("topic"), "id");
