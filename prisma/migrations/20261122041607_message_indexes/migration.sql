-- DropIndex
DROP INDEX "Message_channelId_topic_id_idx";

-- CreateIndex
CREATE INDEX "Message_realmId_dateSent_idx" ON "Message"("realmId", "dateSent");
