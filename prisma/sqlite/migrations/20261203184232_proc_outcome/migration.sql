-- AlterTable
ALTER TABLE "procs" ADD COLUMN "outcome" TEXT;
