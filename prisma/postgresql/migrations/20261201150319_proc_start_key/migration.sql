-- AlterTable
ALTER TABLE "procs" ADD COLUMN     "start_digest" TEXT COLLATE "C",
ADD COLUMN     "start_key" TEXT COLLATE "C";

-- CreateIndex
CREATE INDEX "procs_start_key_idx" ON "procs"("start_key");
