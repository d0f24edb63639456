-- Channel folder names are unique per organization ignoring case, as Zulip compares them (archived
-- folders keep their names): of two concurrent creations or renames differing only in case, the
-- database refuses the second, and its retry answers "already exists".
CREATE UNIQUE INDEX "ChannelFolder_realmId_lower_name_key" ON "ChannelFolder" ("realmId", lower("name"));
