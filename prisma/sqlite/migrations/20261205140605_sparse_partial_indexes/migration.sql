-- DropIndex
DROP INDEX "procs_rerun_of_idx";

-- DropIndex
DROP INDEX "procs_start_key_idx";

-- DropIndex
DROP INDEX "procs_stuck_since_idx";

-- DropIndex
DROP INDEX "procs_parent_pid_idx";

-- DropIndex
DROP INDEX "tasks_state_kind_start_time_seq_idx";

-- CreateIndex
CREATE INDEX "procs_parent_pid_idx" ON "procs"("parent_pid") WHERE parent_pid IS NOT NULL;

-- CreateIndex
CREATE INDEX "procs_stuck_since_idx" ON "procs"("stuck_since") WHERE stuck_since > 0;

-- CreateIndex
CREATE INDEX "procs_start_key_idx" ON "procs"("start_key") WHERE start_key IS NOT NULL;

-- CreateIndex
CREATE INDEX "procs_rerun_of_idx" ON "procs"("rerun_of") WHERE rerun_of IS NOT NULL;

-- CreateIndex
CREATE INDEX "tasks_kind_start_time_seq_idx" ON "tasks"("kind", "start_time", "seq") WHERE state = 'interrupted';

-- CreateIndex
CREATE INDEX "tasks_start_time_seq_idx" ON "tasks"("start_time", "seq") WHERE state = 'error';
