-- AlterTable
ALTER TABLE "procs" ADD COLUMN     "control" TEXT COLLATE "C",
ADD COLUMN     "rerun_of" TEXT COLLATE "C";

-- CreateIndex
CREATE INDEX "procs_rerun_of_idx" ON "procs"("rerun_of");
