-- An alert word is unique per user ignoring case, as Zulip compares them: the database refuses the
-- second of two concurrent additions of the same word.
CREATE UNIQUE INDEX "AlertWord_userId_lower_word_key" ON "AlertWord" ("userId", lower("word"));
