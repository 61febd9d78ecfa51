-- AlterTable
ALTER TABLE "inbox" ADD COLUMN     "due_time" BIGINT NOT NULL DEFAULT 8640000000000000,
ADD COLUMN     "follow_up" BIGINT NOT NULL DEFAULT 8640000000000000,
ADD COLUMN     "priority" INTEGER NOT NULL DEFAULT 50;

-- CreateIndex
CREATE INDEX "inbox_principal_due_time_seq_idx" ON "inbox"("principal", "due_time", "seq");

-- CreateIndex
CREATE INDEX "inbox_principal_priority_due_time_seq_idx" ON "inbox"("principal", "priority", "due_time", "seq");
