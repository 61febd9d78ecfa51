-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_inbox" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "mid" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "start_time" BIGINT NOT NULL,
    "holder" TEXT,
    "held_since" BIGINT,
    "delegator" TEXT,
    "proposal" TEXT,
    "due_time" BIGINT NOT NULL DEFAULT 8640000000000000,
    "follow_up" BIGINT NOT NULL DEFAULT 8640000000000000,
    "priority" INTEGER NOT NULL DEFAULT 50,
    "seq" BIGINT NOT NULL
);
INSERT INTO "new_inbox" ("delegator", "held_since", "holder", "id", "mid", "pid", "principal", "proposal", "seq", "start_time", "tid") SELECT "delegator", "held_since", "holder", "id", "mid", "pid", "principal", "proposal", "seq", "start_time", "tid" FROM "inbox";
DROP TABLE "inbox";
ALTER TABLE "new_inbox" RENAME TO "inbox";
CREATE INDEX "inbox_principal_start_time_seq_idx" ON "inbox"("principal", "start_time", "seq");
CREATE INDEX "inbox_holder_start_time_seq_idx" ON "inbox"("holder", "start_time", "seq");
CREATE INDEX "inbox_principal_due_time_seq_idx" ON "inbox"("principal", "due_time", "seq");
CREATE INDEX "inbox_principal_priority_due_time_seq_idx" ON "inbox"("principal", "priority", "due_time", "seq");
CREATE INDEX "inbox_principal_mid_start_time_seq_idx" ON "inbox"("principal", "mid", "start_time", "seq");
CREATE INDEX "inbox_pid_tid_idx" ON "inbox"("pid", "tid");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
