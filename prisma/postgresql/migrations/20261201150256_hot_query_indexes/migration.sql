-- DropIndex
DROP INDEX "messages_state_idx";

-- DropIndex
DROP INDEX "procs_owner_idx";

-- DropIndex
DROP INDEX "procs_state_idx";

-- CreateIndex
CREATE INDEX "messages_create_time_idx" ON "messages"("create_time");

-- CreateIndex
CREATE INDEX "ops_type_status_create_time_idx" ON "ops"("type", "status", "create_time");

-- CreateIndex
CREATE INDEX "procs_state_timestamp_idx" ON "procs"("state", "timestamp");

-- CreateIndex
CREATE INDEX "procs_owner_state_timestamp_idx" ON "procs"("owner", "state", "timestamp");

-- CreateIndex
CREATE INDEX "procs_start_time_idx" ON "procs"("start_time");

-- CreateIndex
CREATE INDEX "tasks_state_kind_start_time_seq_idx" ON "tasks"("state", "kind", "start_time", "seq");
