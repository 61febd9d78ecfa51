-- The read model's inbox. Open tasks written before this migration get their rows from the read
-- model's backfill on its first inbox read (server/runtime/inbox-backfill.ts), not from SQL here:
-- it parses their assignment with the same code that writes new rows.
-- CreateTable
CREATE TABLE "inbox" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "mid" TEXT COLLATE "C" NOT NULL,
    "principal" TEXT COLLATE "C" NOT NULL,
    "start_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "inbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inbox_principal_start_time_seq_idx" ON "inbox"("principal", "start_time", "seq");

-- CreateIndex
CREATE INDEX "inbox_principal_mid_start_time_seq_idx" ON "inbox"("principal", "mid", "start_time", "seq");

-- CreateIndex
CREATE INDEX "inbox_pid_tid_idx" ON "inbox"("pid", "tid");
