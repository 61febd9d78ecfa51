-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_procs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "state" TEXT NOT NULL,
    "mid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "start_time" BIGINT NOT NULL,
    "end_time" BIGINT NOT NULL,
    "model" TEXT NOT NULL,
    "model_ver" INTEGER NOT NULL,
    "env" TEXT,
    "err" TEXT,
    "parent_pid" TEXT,
    "parent_tid" TEXT,
    "timestamp" BIGINT NOT NULL,
    "owner" TEXT,
    "stuck_since" BIGINT NOT NULL DEFAULT 0,
    "seq" BIGINT NOT NULL
);
INSERT INTO "new_procs" ("end_time", "env", "err", "id", "mid", "model", "model_ver", "name", "owner", "parent_pid", "parent_tid", "seq", "start_time", "state", "timestamp") SELECT "end_time", "env", "err", "id", "mid", "model", "model_ver", "name", "owner", "parent_pid", "parent_tid", "seq", "start_time", "state", "timestamp" FROM "procs";
DROP TABLE "procs";
ALTER TABLE "new_procs" RENAME TO "procs";
CREATE INDEX "procs_state_idx" ON "procs"("state");
CREATE INDEX "procs_mid_idx" ON "procs"("mid");
CREATE INDEX "procs_parent_pid_idx" ON "procs"("parent_pid");
CREATE INDEX "procs_owner_idx" ON "procs"("owner");
CREATE INDEX "procs_stuck_since_idx" ON "procs"("stuck_since");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
