-- AlterTable
ALTER TABLE "models" ADD COLUMN     "archived" BIGINT NOT NULL DEFAULT 0;
