-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_model_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "mid" TEXT NOT NULL,
    "ver" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "deployed_by" TEXT,
    "seq" BIGINT NOT NULL
);
INSERT INTO "new_model_versions" ("create_time", "data", "id", "mid", "seq", "ver") SELECT "create_time", "data", "id", "mid", "seq", "ver" FROM "model_versions";
DROP TABLE "model_versions";
ALTER TABLE "new_model_versions" RENAME TO "model_versions";
CREATE INDEX "model_versions_mid_idx" ON "model_versions"("mid");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
