
-- UserMessage's reference to Message, enforced once per statement instead of once per row. A channel
-- message writes a UserMessage row per recipient in one statement; the foreign key checked each row
-- on its own (a query and a lock per row: about 40% of a send to 1,000 users). These triggers keep the
-- key's rules: a row must name an existing message, which is locked against deletion until the
-- transaction ends (FOR KEY SHARE, as the key's check does); deleting a message deletes its rows;
-- changing a message's ID carries its rows along. The relation stays in schema.prisma for queries.
ALTER TABLE "UserMessage" DROP CONSTRAINT "UserMessage_messageId_fkey";

-- The foreign key's own error (SQLSTATE 23503 and its constraint name): a violation reads as it did.
CREATE FUNCTION "UserMessage_refuse_missing_message"(missing integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "UserMessage" violates foreign key constraint "UserMessage_messageId_fkey"'
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'UserMessage_messageId_fkey', TABLE = 'UserMessage',
      DETAIL = format('Key ("messageId")=(%s) is not present in table "Message".', missing);
END $$;

CREATE FUNCTION "UserMessage_messages_exist"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing integer;
BEGIN
  PERFORM 1 FROM "Message" m WHERE m.id IN (SELECT DISTINCT n."messageId" FROM new_rows n) FOR KEY SHARE OF m;
  SELECT n."messageId" INTO missing FROM new_rows n
    WHERE NOT EXISTS (SELECT 1 FROM "Message" m WHERE m.id = n."messageId") LIMIT 1;
  IF missing IS NOT NULL THEN
    PERFORM "UserMessage_refuse_missing_message"(missing);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "UserMessage_messages_exist_on_insert" AFTER INSERT ON "UserMessage"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "UserMessage_messages_exist"();

-- Transition tables cannot go with a column list, and a statement trigger on every UPDATE would run
-- for every flag change: a row's message is checked when that column alone changes (never, today).
CREATE FUNCTION "UserMessage_message_exists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "Message" m WHERE m.id = NEW."messageId" FOR KEY SHARE OF m;
  IF NOT FOUND THEN
    PERFORM "UserMessage_refuse_missing_message"(NEW."messageId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "UserMessage_message_exists_on_update" AFTER UPDATE OF "messageId" ON "UserMessage"
  FOR EACH ROW WHEN (OLD."messageId" IS DISTINCT FROM NEW."messageId") EXECUTE FUNCTION "UserMessage_message_exists"();

CREATE FUNCTION "Message_delete_user_messages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "UserMessage" WHERE "messageId" IN (SELECT o.id FROM old_rows o);
  RETURN NULL;
END $$;

CREATE TRIGGER "Message_delete_user_messages" AFTER DELETE ON "Message"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "Message_delete_user_messages"();

CREATE FUNCTION "Message_move_user_messages"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "UserMessage" SET "messageId" = NEW.id WHERE "messageId" = OLD.id;
  RETURN NULL;
END $$;

CREATE TRIGGER "Message_move_user_messages" AFTER UPDATE OF id ON "Message"
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION "Message_move_user_messages"();
