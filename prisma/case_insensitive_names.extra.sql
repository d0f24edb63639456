-- Channel names and e-mail addresses are unique per organization ignoring case, as Zulip compares
-- them: the database refuses the second of two concurrent creations (or renames) that differ only
-- in case, and the retried request then finds the first and answers as Zulip does.
CREATE UNIQUE INDEX "Channel_realmId_lower_name_key" ON "Channel" ("realmId", lower("name"));
CREATE UNIQUE INDEX "User_realmId_lower_email_key" ON "User" ("realmId", lower("email"));
