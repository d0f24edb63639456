-- CreateTable
CREATE TABLE "MissedMessageEmail" (
    "userId" INTEGER NOT NULL,
    "messageId" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "mentionedUserGroupId" INTEGER,
    "scheduledAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "MissedMessageEmail_pkey" PRIMARY KEY ("userId","messageId")
);

-- CreateIndex
CREATE INDEX "MissedMessageEmail_scheduledAt_idx" ON "MissedMessageEmail"("scheduledAt");

-- CreateIndex
CREATE INDEX "Subscription_email_notifications_idx" ON "Subscription"("channelId") WHERE ("emailNotifications" AND active);

-- AddForeignKey
ALTER TABLE "MissedMessageEmail" ADD CONSTRAINT "MissedMessageEmail_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MissedMessageEmail" ADD CONSTRAINT "MissedMessageEmail_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Who may be told of a channel message by e-mail is found through small indexes rather than by
-- reading every subscription of the channel: the users whose default turns channel e-mail
-- notifications on (settings hold only values that differ from defaults), and the followers of a
-- topic (with Subscription_email_notifications_idx for the subscriptions that turn them on).
CREATE INDEX "User_stream_email_default_idx" ON "User" ("realmId") WHERE (settings->>'enable_stream_email_notifications') = 'true';
CREATE INDEX "UserTopic_followed_idx" ON "UserTopic" ("channelId", lower("topicName")) WHERE "visibilityPolicy" = 3;
