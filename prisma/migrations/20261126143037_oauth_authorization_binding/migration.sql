-- An OAuth authorization is completed only in the browser that opened its start link (GET /oauth/start/{provider}):
-- the link opens once, giving that browser a binding cookie whose hash the callback must match. Authorizations
-- started before this migration have neither, so their callbacks are refused (they expire within 10 minutes).
-- AlterTable
ALTER TABLE "oauth_authorization" ADD COLUMN     "authorization_url" TEXT,
ADD COLUMN     "binding_hash" TEXT;
