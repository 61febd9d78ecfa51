-- CreateTable
CREATE TABLE "users" (
    "id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "password_hash" TEXT COLLATE "C" NOT NULL,
    "roles" TEXT COLLATE "C",
    "disabled" BOOLEAN NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT COLLATE "C" NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "expires" BIGINT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "last_seen" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT COLLATE "C" NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "token_hash" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "last_used" BIGINT,
    "revoked" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" TEXT COLLATE "C" NOT NULL,
    "time" BIGINT NOT NULL,
    "actor" TEXT COLLATE "C" NOT NULL,
    "actor_name" TEXT COLLATE "C" NOT NULL,
    "action" TEXT COLLATE "C" NOT NULL,
    "target" TEXT COLLATE "C" NOT NULL,
    "detail" TEXT COLLATE "C",
    "result" TEXT COLLATE "C" NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_name_key" ON "users"("name");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE INDEX "sessions_expires_idx" ON "sessions"("expires");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");

-- CreateIndex
CREATE INDEX "audit_entries_time_idx" ON "audit_entries"("time");

-- CreateIndex
CREATE INDEX "audit_entries_actor_time_idx" ON "audit_entries"("actor", "time");

-- CreateIndex
CREATE INDEX "audit_entries_action_time_idx" ON "audit_entries"("action", "time");

-- CreateIndex
CREATE INDEX "audit_entries_target_time_idx" ON "audit_entries"("target", "time");
