-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_models" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "ver" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "update_time" BIGINT NOT NULL,
    "archived" BIGINT NOT NULL DEFAULT 0,
    "seq" BIGINT NOT NULL
);
INSERT INTO "new_models" ("create_time", "data", "id", "name", "seq", "size", "update_time", "ver") SELECT "create_time", "data", "id", "name", "seq", "size", "update_time", "ver" FROM "models";
DROP TABLE "models";
ALTER TABLE "new_models" RENAME TO "models";
CREATE INDEX "models_name_idx" ON "models"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
