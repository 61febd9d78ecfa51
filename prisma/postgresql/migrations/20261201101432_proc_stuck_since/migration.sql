-- AlterTable
ALTER TABLE "procs" ADD COLUMN     "stuck_since" BIGINT NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "procs_stuck_since_idx" ON "procs"("stuck_since");
