-- AlterTable
ALTER TABLE "inbox" ADD COLUMN "delegator" TEXT;
ALTER TABLE "inbox" ADD COLUMN "held_since" BIGINT;
ALTER TABLE "inbox" ADD COLUMN "holder" TEXT;
ALTER TABLE "inbox" ADD COLUMN "proposal" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN "groups" TEXT;

-- CreateTable
CREATE TABLE "groups" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "description" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "inbox_holder_start_time_seq_idx" ON "inbox"("holder", "start_time", "seq");
