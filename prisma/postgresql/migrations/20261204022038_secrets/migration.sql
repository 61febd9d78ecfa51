-- CreateTable
CREATE TABLE "secrets" (
    "id" TEXT COLLATE "C" NOT NULL,
    "value" TEXT COLLATE "C" NOT NULL,
    "iv" TEXT COLLATE "C" NOT NULL,
    "key_id" TEXT COLLATE "C" NOT NULL,
    "create_time" BIGINT NOT NULL,
    "create_by" TEXT COLLATE "C" NOT NULL,
    "update_time" BIGINT NOT NULL,
    "update_by" TEXT COLLATE "C" NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "secrets_pkey" PRIMARY KEY ("id")
);
