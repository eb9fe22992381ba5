-- AlterTable
ALTER TABLE "social_account" ADD COLUMN     "connection_method" TEXT;

-- AlterTable
ALTER TABLE "oauth_authorization" ADD COLUMN     "method" TEXT;

-- Every Instagram account connected so far came through Facebook Login.
UPDATE "social_account" SET "connection_method" = 'facebook_login' WHERE "provider" = 'instagram';
