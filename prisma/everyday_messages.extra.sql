-- Zulip's three edit-history visibility policies; anything else is a bug in the writer.
ALTER TABLE "Realm" ADD CONSTRAINT "Realm_messageEditHistoryVisibilityPolicy_check"
  CHECK ("messageEditHistoryVisibilityPolicy" IN ('all', 'moves', 'none'));
