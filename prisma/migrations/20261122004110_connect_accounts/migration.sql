-- DropIndex
DROP INDEX "social_account_workspace_id_provider_username_key";

-- CreateTable
CREATE TABLE "oauth_authorization" (
    "id" UUID NOT NULL,
    "state_hash" TEXT NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "encrypted_code_verifier" TEXT,
    "return_to" TEXT,
    "instance_url" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_authorization_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_authorization_state_hash_key" ON "oauth_authorization"("state_hash");

-- CreateIndex
CREATE INDEX "oauth_authorization_expires_at_idx" ON "oauth_authorization"("expires_at");

-- CreateIndex
CREATE INDEX "social_account_workspace_id_provider_username_idx" ON "social_account"("workspace_id", "provider", "username");

-- CreateIndex
CREATE UNIQUE INDEX "social_account_workspace_id_provider_remote_id_key" ON "social_account"("workspace_id", "provider", "remote_id");

-- AddForeignKey
ALTER TABLE "oauth_authorization" ADD CONSTRAINT "oauth_authorization_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
