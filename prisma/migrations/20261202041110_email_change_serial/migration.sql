-- AlterTable
ALTER TABLE "User" ADD COLUMN     "emailChangeSerial" INTEGER NOT NULL DEFAULT 0;
