-- AlterTable
ALTER TABLE "inbox" ADD COLUMN     "delegator" TEXT COLLATE "C",
ADD COLUMN     "held_since" BIGINT,
ADD COLUMN     "holder" TEXT COLLATE "C",
ADD COLUMN     "proposal" TEXT COLLATE "C";

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "groups" TEXT COLLATE "C";

-- CreateTable
CREATE TABLE "groups" (
    "id" TEXT COLLATE "C" NOT NULL,
    "description" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "groups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inbox_holder_start_time_seq_idx" ON "inbox"("holder", "start_time", "seq");
