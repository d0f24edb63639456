-- AlterTable
ALTER TABLE "Realm" ADD COLUMN     "iconSource" TEXT NOT NULL DEFAULT 'G',
ADD COLUMN     "iconVersion" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "logoSource" TEXT NOT NULL DEFAULT 'D',
ADD COLUMN     "logoVersion" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "nightLogoSource" TEXT NOT NULL DEFAULT 'D',
ADD COLUMN     "nightLogoVersion" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "uploadQuotaMib" INTEGER;

-- AlterTable
ALTER TABLE "Attachment" DROP COLUMN "content",
ADD COLUMN     "frames" INTEGER,
ADD COLUMN     "height" INTEGER,
ADD COLUMN     "thumbnails" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "width" INTEGER;

-- CreateTable
CREATE TABLE "AttachmentMessage" (
    "attachmentId" INTEGER NOT NULL,
    "messageId" INTEGER NOT NULL,

    CONSTRAINT "AttachmentMessage_pkey" PRIMARY KEY ("attachmentId","messageId")
);

-- CreateTable
CREATE TABLE "ServerSecret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "ServerSecret_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "RealmExport" (
    "id" SERIAL NOT NULL,
    "realmId" INTEGER NOT NULL,
    "actingUserId" INTEGER,
    "exportType" INTEGER NOT NULL DEFAULT 1,
    "dateRequested" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateSucceeded" TIMESTAMP(3),
    "dateFailed" TIMESTAMP(3),
    "dateDeleted" TIMESTAMP(3),
    "archiveKey" TEXT,
    "size" INTEGER,

    CONSTRAINT "RealmExport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AttachmentMessage_messageId_idx" ON "AttachmentMessage"("messageId");

-- CreateIndex
CREATE INDEX "RealmExport_realmId_idx" ON "RealmExport"("realmId");

-- CreateIndex
CREATE INDEX "Attachment_ownerId_idx" ON "Attachment"("ownerId");

-- CreateIndex
CREATE INDEX "Attachment_realmId_idx" ON "Attachment"("realmId");

-- AddForeignKey
ALTER TABLE "AttachmentMessage" ADD CONSTRAINT "AttachmentMessage_attachmentId_fkey" FOREIGN KEY ("attachmentId") REFERENCES "Attachment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AttachmentMessage" ADD CONSTRAINT "AttachmentMessage_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RealmExport" ADD CONSTRAINT "RealmExport_realmId_fkey" FOREIGN KEY ("realmId") REFERENCES "Realm"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
