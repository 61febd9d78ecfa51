-- AlterTable
ALTER TABLE "procs" ADD COLUMN "inputs_text" TEXT;
