-- CreateTable
CREATE TABLE "models" (
    "id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "ver" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "data" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "models_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_versions" (
    "id" TEXT COLLATE "C" NOT NULL,
    "mid" TEXT COLLATE "C" NOT NULL,
    "ver" INTEGER NOT NULL,
    "data" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "model_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "procs" (
    "id" TEXT COLLATE "C" NOT NULL,
    "state" TEXT COLLATE "C" NOT NULL,
    "mid" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "start_time" BIGINT NOT NULL,
    "end_time" BIGINT NOT NULL,
    "model" TEXT COLLATE "C" NOT NULL,
    "model_ver" INTEGER NOT NULL,
    "env" TEXT COLLATE "C",
    "err" TEXT COLLATE "C",
    "parent_pid" TEXT COLLATE "C",
    "parent_tid" TEXT COLLATE "C",
    "timestamp" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "procs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "node_data" TEXT COLLATE "C",
    "kind" TEXT COLLATE "C" NOT NULL,
    "prev" TEXT COLLATE "C",
    "parent" TEXT COLLATE "C",
    "name" TEXT COLLATE "C" NOT NULL,
    "state" TEXT COLLATE "C" NOT NULL,
    "data" TEXT COLLATE "C",
    "err" TEXT COLLATE "C",
    "start_time" BIGINT NOT NULL,
    "end_time" BIGINT NOT NULL,
    "hooks" TEXT COLLATE "C",
    "timestamp" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "nid" TEXT COLLATE "C" NOT NULL,
    "mid" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "type" TEXT COLLATE "C" NOT NULL,
    "state" TEXT COLLATE "C" NOT NULL,
    "key" TEXT COLLATE "C" NOT NULL,
    "uses" TEXT COLLATE "C" NOT NULL,
    "tag" TEXT COLLATE "C" NOT NULL,
    "model" TEXT COLLATE "C",
    "inputs" TEXT COLLATE "C",
    "outputs" TEXT COLLATE "C",
    "start_time" BIGINT NOT NULL,
    "end_time" BIGINT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deliveries" (
    "id" TEXT COLLATE "C" NOT NULL,
    "msg_id" TEXT COLLATE "C" NOT NULL,
    "chan_id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "status" TEXT COLLATE "C" NOT NULL,
    "retry_times" INTEGER NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT COLLATE "C" NOT NULL,
    "mid" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "ver" INTEGER NOT NULL,
    "uses" TEXT COLLATE "C" NOT NULL,
    "kind" TEXT COLLATE "C" NOT NULL,
    "params" TEXT COLLATE "C",
    "cron" TEXT COLLATE "C",
    "timezone" TEXT COLLATE "C",
    "next_run" BIGINT NOT NULL,
    "last_run" BIGINT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "packages" (
    "id" TEXT COLLATE "C" NOT NULL,
    "desc" TEXT COLLATE "C" NOT NULL,
    "icon" TEXT COLLATE "C" NOT NULL,
    "doc" TEXT COLLATE "C" NOT NULL,
    "version" TEXT COLLATE "C" NOT NULL,
    "schema" TEXT COLLATE "C",
    "run_as" TEXT COLLATE "C" NOT NULL,
    "resources" TEXT COLLATE "C",
    "catalog" TEXT COLLATE "C" NOT NULL,
    "built_in" BOOLEAN NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "packages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ops" (
    "id" TEXT COLLATE "C" NOT NULL,
    "type" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "event" TEXT COLLATE "C",
    "options" TEXT COLLATE "C",
    "status" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "ops_pkey" PRIMARY KEY ("id")
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
