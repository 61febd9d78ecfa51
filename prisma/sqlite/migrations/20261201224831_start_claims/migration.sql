-- CreateTable
CREATE TABLE "start_claims" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pid" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "claimed" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL
);
