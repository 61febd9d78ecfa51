-- CreateTable
CREATE TABLE "drafts" (
    "id" TEXT COLLATE "C" NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "user_name" TEXT COLLATE "C" NOT NULL,
    "mid" TEXT COLLATE "C" NOT NULL,
    "title" TEXT COLLATE "C" NOT NULL,
    "source" TEXT COLLATE "C" NOT NULL,
    "layout" TEXT COLLATE "C",
    "base_ver" INTEGER NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "drafts_user_id_idx" ON "drafts"("user_id");

-- CreateIndex
CREATE INDEX "drafts_mid_idx" ON "drafts"("mid");
