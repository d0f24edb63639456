-- CreateTable
CREATE TABLE "BotProfile" (
    "userId" INTEGER NOT NULL,
    "defaultSendingChannelId" INTEGER,
    "defaultEventsRegisterChannelId" INTEGER,
    "defaultAllPublicChannels" BOOLEAN NOT NULL DEFAULT false,
    "serviceName" TEXT,
    "serviceBaseUrl" TEXT,
    "serviceToken" TEXT,
    "serviceInterface" INTEGER,
    "configData" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "BotProfile_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "email" TEXT,
    "inviterId" INTEGER NOT NULL,
    "inviteAs" INTEGER NOT NULL DEFAULT 400,
    "channelIds" INTEGER[],
    "groupIds" INTEGER[],
    "includeRealmDefaultSubscriptions" BOOLEAN NOT NULL DEFAULT false,
    "notifyReferrerOnJoin" BOOLEAN NOT NULL DEFAULT true,
    "key" TEXT NOT NULL,
    "invitedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'active',

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_key_key" ON "Invitation"("key");

-- CreateIndex
CREATE INDEX "Invitation_realmId_status_idx" ON "Invitation"("realmId", "status");

-- AddForeignKey
ALTER TABLE "BotProfile" ADD CONSTRAINT "BotProfile_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_inviterId_fkey" FOREIGN KEY ("inviterId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
