-- AlterTable
ALTER TABLE "procs" ADD COLUMN "control" TEXT;
ALTER TABLE "procs" ADD COLUMN "rerun_of" TEXT;

-- CreateIndex
CREATE INDEX "procs_rerun_of_idx" ON "procs"("rerun_of");
