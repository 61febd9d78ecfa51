-- AlterTable
ALTER TABLE "users" ADD COLUMN "email" TEXT;

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "next_time" BIGINT NOT NULL,
    "lease_until" BIGINT NOT NULL,
    "error" TEXT,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "mail_link_uses" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "user_name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "use_time" BIGINT NOT NULL,
    "result" TEXT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "notifications_state_next_time_idx" ON "notifications"("state", "next_time");
