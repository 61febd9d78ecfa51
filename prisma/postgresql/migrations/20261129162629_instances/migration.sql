-- AlterTable
ALTER TABLE "procs" ADD COLUMN     "owner" TEXT COLLATE "C";

-- CreateTable
CREATE TABLE "instances" (
    "id" TEXT COLLATE "C" NOT NULL,
    "host" TEXT COLLATE "C" NOT NULL,
    "pid" INTEGER NOT NULL,
    "lease_until" BIGINT NOT NULL,
    "started" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "instances_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "procs_owner_idx" ON "procs"("owner");
