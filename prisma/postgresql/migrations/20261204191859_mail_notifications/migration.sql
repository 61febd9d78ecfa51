-- AlterTable
ALTER TABLE "users" ADD COLUMN     "email" TEXT COLLATE "C";

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT COLLATE "C" NOT NULL,
    "kind" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "user_name" TEXT COLLATE "C" NOT NULL,
    "email" TEXT COLLATE "C" NOT NULL,
    "state" TEXT COLLATE "C" NOT NULL,
    "attempts" INTEGER NOT NULL,
    "next_time" BIGINT NOT NULL,
    "lease_until" BIGINT NOT NULL,
    "error" TEXT COLLATE "C",
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mail_link_uses" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "user_name" TEXT COLLATE "C" NOT NULL,
    "action" TEXT COLLATE "C" NOT NULL,
    "use_time" BIGINT NOT NULL,
    "result" TEXT COLLATE "C" NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "mail_link_uses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notifications_state_next_time_idx" ON "notifications"("state", "next_time");
