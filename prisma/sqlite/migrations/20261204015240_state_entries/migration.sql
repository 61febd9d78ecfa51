-- CreateTable
CREATE TABLE "states" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "states_pid_idx" ON "states"("pid");
