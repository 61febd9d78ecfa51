-- CreateTable
CREATE TABLE "models" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "ver" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "model_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "mid" TEXT NOT NULL,
    "ver" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "procs" (
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
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "node_data" TEXT,
    "kind" TEXT NOT NULL,
    "prev" TEXT,
    "parent" TEXT,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "data" TEXT,
    "err" TEXT,
    "start_time" BIGINT NOT NULL,
    "end_time" BIGINT NOT NULL,
    "hooks" TEXT,
    "timestamp" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "nid" TEXT NOT NULL,
    "mid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "uses" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "model" TEXT,
    "inputs" TEXT,
    "outputs" TEXT,
    "start_time" BIGINT NOT NULL,
    "end_time" BIGINT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "msg_id" TEXT NOT NULL,
    "chan_id" TEXT NOT NULL,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "retry_times" INTEGER NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "mid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "ver" INTEGER NOT NULL,
    "uses" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "params" TEXT,
    "cron" TEXT,
    "timezone" TEXT,
    "next_run" BIGINT NOT NULL,
    "last_run" BIGINT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "packages" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "desc" TEXT NOT NULL,
    "icon" TEXT NOT NULL,
    "doc" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "schema" TEXT,
    "run_as" TEXT NOT NULL,
    "resources" TEXT,
    "catalog" TEXT NOT NULL,
    "built_in" BOOLEAN NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "ops" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "event" TEXT,
    "options" TEXT,
    "status" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "models_name_idx" ON "models"("name");

-- CreateIndex
CREATE INDEX "model_versions_mid_idx" ON "model_versions"("mid");

-- CreateIndex
CREATE INDEX "procs_state_idx" ON "procs"("state");

-- CreateIndex
CREATE INDEX "procs_mid_idx" ON "procs"("mid");

-- CreateIndex
CREATE INDEX "procs_parent_pid_idx" ON "procs"("parent_pid");

-- CreateIndex
CREATE INDEX "tasks_pid_idx" ON "tasks"("pid");

-- CreateIndex
CREATE INDEX "messages_pid_tid_idx" ON "messages"("pid", "tid");

-- CreateIndex
CREATE INDEX "messages_mid_idx" ON "messages"("mid");

-- CreateIndex
CREATE INDEX "messages_state_idx" ON "messages"("state");

-- CreateIndex
CREATE INDEX "deliveries_status_update_time_idx" ON "deliveries"("status", "update_time");

-- CreateIndex
CREATE INDEX "deliveries_pid_tid_idx" ON "deliveries"("pid", "tid");

-- CreateIndex
CREATE INDEX "deliveries_msg_id_idx" ON "deliveries"("msg_id");

-- CreateIndex
CREATE INDEX "events_mid_idx" ON "events"("mid");

-- CreateIndex
CREATE INDEX "events_kind_next_run_idx" ON "events"("kind", "next_run");

-- CreateIndex
CREATE INDEX "ops_status_update_time_idx" ON "ops"("status", "update_time");

-- CreateIndex
CREATE INDEX "ops_pid_tid_idx" ON "ops"("pid", "tid");
