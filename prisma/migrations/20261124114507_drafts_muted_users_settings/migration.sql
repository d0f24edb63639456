-- AlterTable
ALTER TABLE "Realm" ADD COLUMN     "userSettingsDefaults" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "Draft" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "to" INTEGER[],
    "topic" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "lastEditTime" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Draft_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MutedUser" (
    "userId" INTEGER NOT NULL,
    "mutedUserId" INTEGER NOT NULL,
    "realmId" INTEGER NOT NULL,
    "dateMuted" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MutedUser_pkey" PRIMARY KEY ("userId","mutedUserId")
);

-- CreateIndex
CREATE INDEX "Draft_userId_lastEditTime_idx" ON "Draft"("userId", "lastEditTime");

-- CreateIndex
CREATE INDEX "MutedUser_realmId_idx" ON "MutedUser"("realmId");

-- CreateIndex
CREATE INDEX "MutedUser_mutedUserId_idx" ON "MutedUser"("mutedUserId");

-- AddForeignKey
ALTER TABLE "Draft" ADD CONSTRAINT "Draft_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MutedUser" ADD CONSTRAINT "MutedUser_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "MutedUser" ADD CONSTRAINT "MutedUser_mutedUserId_fkey" FOREIGN KEY ("mutedUserId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
