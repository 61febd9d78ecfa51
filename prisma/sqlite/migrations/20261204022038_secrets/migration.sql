-- CreateTable
CREATE TABLE "secrets" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "iv" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "create_by" TEXT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "update_by" TEXT NOT NULL,
    "seq" BIGINT NOT NULL
);
