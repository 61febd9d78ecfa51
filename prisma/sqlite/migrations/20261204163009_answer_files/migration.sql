-- CreateTable
CREATE TABLE "answer_files" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "tid" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "create_by" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);

-- CreateIndex
CREATE INDEX "answer_files_pid_idx" ON "answer_files"("pid");
