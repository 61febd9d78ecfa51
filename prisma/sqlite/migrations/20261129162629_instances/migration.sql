-- AlterTable
ALTER TABLE "procs" ADD COLUMN "owner" TEXT;

-- CreateTable
CREATE TABLE "instances" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "lease_until" BIGINT NOT NULL,
    "started" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "procs_owner_idx" ON "procs"("owner");
