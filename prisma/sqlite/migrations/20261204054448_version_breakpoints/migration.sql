-- AlterTable
ALTER TABLE "models" ADD COLUMN "breakpoints" TEXT;
