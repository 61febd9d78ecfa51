-- Revoked tokens are deleted from now on: delete the ones revoked before.
DELETE FROM "api_tokens" WHERE "revoked";

-- AlterTable
ALTER TABLE "api_tokens" DROP COLUMN "revoked";
