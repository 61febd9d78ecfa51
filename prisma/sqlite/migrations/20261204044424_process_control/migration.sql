-- AlterTable
ALTER TABLE "procs" ADD COLUMN "control" TEXT;
