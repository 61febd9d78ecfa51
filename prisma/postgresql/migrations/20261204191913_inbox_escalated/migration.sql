-- AlterTable
ALTER TABLE "inbox" ADD COLUMN     "escalated" TEXT COLLATE "C";
