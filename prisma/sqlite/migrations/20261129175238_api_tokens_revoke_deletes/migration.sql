-- Revoked tokens are deleted from now on: delete the ones revoked before.
DELETE FROM "api_tokens" WHERE "revoked";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_api_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "create_time" BIGINT NOT NULL,
    "last_used" BIGINT,
    "seq" BIGINT NOT NULL
);
INSERT INTO "new_api_tokens" ("create_time", "id", "last_used", "name", "seq", "token_hash", "user_id") SELECT "create_time", "id", "last_used", "name", "seq", "token_hash", "user_id" FROM "api_tokens";
DROP TABLE "api_tokens";
ALTER TABLE "new_api_tokens" RENAME TO "api_tokens";
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
