-- CreateTable
CREATE TABLE "mastodon_app" (
    "id" UUID NOT NULL,
    "instance_url" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "encrypted_client_secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mastodon_app_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "mastodon_app_instance_url_redirect_uri_key" ON "mastodon_app"("instance_url", "redirect_uri");
