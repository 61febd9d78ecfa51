-- CreateTable
CREATE TABLE "states" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "key" TEXT COLLATE "C" NOT NULL,
    "value" TEXT COLLATE "C",
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "states_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "states_pid_idx" ON "states"("pid");
