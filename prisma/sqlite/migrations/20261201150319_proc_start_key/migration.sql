-- AlterTable
ALTER TABLE "procs" ADD COLUMN "start_digest" TEXT;
ALTER TABLE "procs" ADD COLUMN "start_key" TEXT;

-- CreateIndex
CREATE INDEX "procs_start_key_idx" ON "procs"("start_key");
