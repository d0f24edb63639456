-- DropIndex
DROP INDEX "UserMessage_userId_read_messageId_idx";

-- DropIndex
DROP INDEX "UserMessage_userId_starred_messageId_idx";

-- DropIndex
DROP INDEX "UserMessage_userId_mentioned_messageId_idx";

-- DropIndex
DROP INDEX "UserMessage_userId_isPrivate_messageId_idx";

-- CreateIndex
CREATE INDEX "UserMessage_unread_idx" ON "UserMessage"("userId", "messageId") WHERE (NOT read);

-- CreateIndex
CREATE INDEX "UserMessage_starred_idx" ON "UserMessage"("userId", "messageId") WHERE (starred);

-- CreateIndex
CREATE INDEX "UserMessage_mentioned_idx" ON "UserMessage"("userId", "messageId") WHERE (mentioned OR "streamWildcardMentioned" OR "topicWildcardMentioned");

-- CreateIndex
CREATE INDEX "UserMessage_alerted_idx" ON "UserMessage"("userId", "messageId") WHERE ("hasAlertWord");

-- CreateIndex
CREATE INDEX "UserMessage_private_idx" ON "UserMessage"("userId", "messageId") WHERE ("isPrivate");
