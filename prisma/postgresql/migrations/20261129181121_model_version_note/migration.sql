-- AlterTable
ALTER TABLE "model_versions" ADD COLUMN     "deployed_by" TEXT COLLATE "C",
ADD COLUMN     "note" TEXT COLLATE "C" NOT NULL DEFAULT '';
