-- AlterTable
ALTER TABLE "Realm" DROP COLUMN "allowEditHistory",
ADD COLUMN     "enableReadReceipts" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "messageEditHistoryVisibilityPolicy" TEXT NOT NULL DEFAULT 'all';

-- CreateTable
CREATE TABLE "SubMessage" (
    "id" SERIAL NOT NULL,
    "messageId" INTEGER NOT NULL,
    "senderId" INTEGER NOT NULL,
    "msgType" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "SubMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OnboardingStep" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "step" TEXT NOT NULL,
    "timestamp" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OnboardingStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RealmPlayground" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "pygmentsLanguage" TEXT NOT NULL,
    "urlTemplate" TEXT NOT NULL,

    CONSTRAINT "RealmPlayground_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SubMessage_messageId_id_idx" ON "SubMessage"("messageId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "OnboardingStep_userId_step_key" ON "OnboardingStep"("userId", "step");

-- CreateIndex
CREATE UNIQUE INDEX "RealmPlayground_realmId_pygmentsLanguage_name_key" ON "RealmPlayground"("realmId", "pygmentsLanguage", "name");

-- AddForeignKey
ALTER TABLE "SubMessage" ADD CONSTRAINT "SubMessage_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SubMessage" ADD CONSTRAINT "SubMessage_senderId_fkey" FOREIGN KEY ("senderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OnboardingStep" ADD CONSTRAINT "OnboardingStep_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RealmPlayground" ADD CONSTRAINT "RealmPlayground_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Zulip's three edit-history visibility policies; anything else is a bug in the writer.
ALTER TABLE "Realm" ADD CONSTRAINT "Realm_messageEditHistoryVisibilityPolicy_check"
  CHECK ("messageEditHistoryVisibilityPolicy" IN ('all', 'moves', 'none'));
