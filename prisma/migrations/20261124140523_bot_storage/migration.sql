-- CreateTable
CREATE TABLE "BotStorageEntry" (
    "userId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "BotStorageEntry_pkey" PRIMARY KEY ("userId","key")
);

-- AddForeignKey
ALTER TABLE "BotStorageEntry" ADD CONSTRAINT "BotStorageEntry_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
