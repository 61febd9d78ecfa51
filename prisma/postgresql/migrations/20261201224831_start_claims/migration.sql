-- CreateTable
CREATE TABLE "start_claims" (
    "id" TEXT COLLATE "C" NOT NULL,
    "pid" TEXT COLLATE "C" NOT NULL,
    "digest" TEXT COLLATE "C" NOT NULL,
    "instance" TEXT COLLATE "C" NOT NULL,
    "claimed" BIGINT NOT NULL,
    "seq" BIGINT NOT NULL,

    CONSTRAINT "start_claims_pkey" PRIMARY KEY ("id")
);
