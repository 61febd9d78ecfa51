-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "roles" TEXT,
    "disabled" BOOLEAN NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "expires" BIGINT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "last_seen" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "last_used" BIGINT,
    "revoked" BOOLEAN NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "time" BIGINT NOT NULL,
    "actor" TEXT NOT NULL,
    "actor_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "detail" TEXT,
    "result" TEXT NOT NULL,
    "seq" BIGINT NOT NULL
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
