-- AlterTable
ALTER TABLE "User" ADD COLUMN     "avatarKey" TEXT;
