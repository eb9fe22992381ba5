-- CreateTable
CREATE TABLE "oauth_app_client" (
    "id" UUID NOT NULL,
    "name" TEXT,
    "redirect_uris" TEXT[],
    "metadata" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_app_client_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_app_request" (
    "id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "state" TEXT,
    "scopes" TEXT[],
    "resource" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "code_hash" TEXT,
    "app_id" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "exchanged_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_app_request_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connected_app" (
    "id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "scopes" TEXT[],
    "resource" TEXT NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connected_app_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connected_app_token" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "connected_app_token_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_app_request_code_hash_key" ON "oauth_app_request"("code_hash");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_app_request_app_id_key" ON "oauth_app_request"("app_id");

-- CreateIndex
CREATE INDEX "connected_app_workspace_id_user_id_idx" ON "connected_app"("workspace_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "connected_app_token_hash_key" ON "connected_app_token"("hash");

-- CreateIndex
CREATE INDEX "connected_app_token_app_id_idx" ON "connected_app_token"("app_id");

-- AddForeignKey
ALTER TABLE "oauth_app_request" ADD CONSTRAINT "oauth_app_request_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_app_client"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_app_request" ADD CONSTRAINT "oauth_app_request_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "connected_app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connected_app" ADD CONSTRAINT "connected_app_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "oauth_app_client"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connected_app" ADD CONSTRAINT "connected_app_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connected_app" ADD CONSTRAINT "connected_app_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "app_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connected_app_token" ADD CONSTRAINT "connected_app_token_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "connected_app"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A connected app disconnected (or its family revoked) refuses its tokens at once in every process (see
-- notify_access_changed); last use is written often and changes no access.
CREATE TRIGGER connected_app_access_changed AFTER UPDATE OF revoked_at OR DELETE ON connected_app
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
