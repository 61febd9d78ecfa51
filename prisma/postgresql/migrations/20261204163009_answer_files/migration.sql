-- CreateTable
CREATE TABLE "answer_files" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "tid" TEXT COLLATE "C" NOT NULL,
    "field" TEXT COLLATE "C" NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "type" TEXT COLLATE "C" NOT NULL,
    "size" INTEGER NOT NULL,
    "data" TEXT COLLATE "C" NOT NULL,
    "create_by" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "answer_files_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "answer_files_pid_idx" ON "answer_files"("pid");
